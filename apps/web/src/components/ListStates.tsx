import { useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { toast } from './toast';

interface StateProps {
  loading: boolean;
  error: boolean;
  empty: boolean;
  onRetry?: () => void;
  /** The list's own empty text; 'Nenhum registro encontrado.' by default. */
  emptyText?: string;
}

function StateContent({ loading, error, empty, onRetry, emptyText }: StateProps): ReactNode {
  const { t } = useTranslation();
  // Spec 1 §8: a list that fails to load also says so in a toast.
  useEffect(() => {
    if (error && !loading) toast.error(t('ui.list.error'));
  }, [error, loading, t]);
  if (loading) {
    return (
      <Box data-testid="list-loading" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.5, py: 3 }}>
        <CircularProgress size={20} />
        <Typography color="text.secondary">{t('ui.list.loading')}</Typography>
      </Box>
    );
  }
  if (error) {
    return (
      <Box data-testid="list-error" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 3 }}>
        <Typography color="error">{t('ui.list.error')}</Typography>
        {onRetry && (
          <Button size="small" onClick={onRetry}>
            {t('ui.list.retry')}
          </Button>
        )}
      </Box>
    );
  }
  if (empty) {
    return (
      <Typography data-testid="list-empty" color="text.secondary" sx={{ textAlign: 'center', py: 3 }}>
        {emptyText ?? t('ui.list.empty')}
      </Typography>
    );
  }
  return null;
}

/** Loading, error and empty states of a table, as one full-width row (nothing when the list has rows). */
export function TableStateRow({ colSpan, ...state }: StateProps & { colSpan: number }) {
  if (!state.loading && !state.error && !state.empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ borderBottom: 'none' }}>
        <StateContent {...state} />
      </TableCell>
    </TableRow>
  );
}

/** The same states outside a table (grids, cards). */
export function ListState(props: StateProps) {
  if (!props.loading && !props.error && !props.empty) return null;
  return <StateContent {...props} />;
}

/** The row shown while the next page loads. */
export function LoadingMoreRow({ colSpan, show }: { colSpan: number; show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <TableRow data-testid="list-loading-more">
      <TableCell colSpan={colSpan} sx={{ textAlign: 'center', color: 'text.secondary' }}>
        <CircularProgress size={16} sx={{ mr: 1, verticalAlign: 'middle' }} />
        {t('ui.list.loadingMore')}
      </TableCell>
    </TableRow>
  );
}
