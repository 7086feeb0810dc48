import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { alpha } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import {
  INFINITE_SCROLL_THRESHOLD_PX,
  PLATFORM_COMPANY_ID,
  SEARCH_DEBOUNCE_MS,
  dueDateColour,
  localIsoDate,
  renewDueDate,
  type Company,
} from '@balcao/contracts';
import { useCompaniesLive, useCompaniesPages, useDeleteCompany, useRenewCompany } from '../../api/companies';
import { usePlansLive } from '../../api/plans';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { nearBottom, useDebouncedValue } from '../../components/form';
import { formatDate } from '../../components/format';
import { SearchField } from '../../components/ListPage';
import { LoadingMoreRow, TableStateRow } from '../../components/ListStates';
import { toast, toastError } from '../../components/toast';
import { CompanyDialog } from './CompanyDialog';

const COLUMNS = 8;
/** Spec 1 §4: due in 1–5 days yellow, today or past red. */
const DUE_YELLOW = '#FFD600';

/** The super user's companies: search, infinite scroll, due dates coloured, renew, edit, delete. */
export function CompaniesManager() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const pages = useCompaniesPages(debounced);
  useCompaniesLive(true);
  usePlansLive(true);
  const renew = useRenewCompany();
  const remove = useDeleteCompany();
  const [editing, setEditing] = useState<{ company: Company | null } | null>(null);
  const [renewing, setRenewing] = useState<Company | null>(null);
  const [deleting, setDeleting] = useState<Company | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const today = localIsoDate(new Date());

  const companies = pages.data?.pages.flatMap((p) => p.companies) ?? [];
  const loadMore = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };
  useEffect(() => {
    const el = scroller.current;
    if (el && el.scrollHeight <= el.clientHeight && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  });

  return (
    <Stack spacing={2} sx={{ minHeight: 0, flex: 1 }} data-testid="companies-manager">
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Chip size="small" label={t('companies.due.soon')} sx={{ bgcolor: alpha(DUE_YELLOW, 0.35) }} />
          <Chip size="small" label={t('companies.due.overdue')} sx={{ bgcolor: (th) => alpha(th.palette.error.main, 0.3) }} />
        </Stack>
        <Stack direction="row" spacing={1}>
          <SearchField value={search} onChange={setSearch} testId="companies-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ company: null })} data-testid="companies-add">
            {t('companies.add')}
          </Button>
        </Stack>
      </Stack>
      <Paper
        ref={scroller}
        variant="outlined"
        sx={{ overflow: 'auto', maxHeight: 'calc(100vh - 260px)', minHeight: 200 }}
        onScroll={(e) => {
          if (nearBottom(e.currentTarget, INFINITE_SCROLL_THRESHOLD_PX)) loadMore();
        }}
      >
        <Table size="small" stickyHeader data-testid="companies-table">
          <TableHead>
            <TableRow>
              <TableCell>{t('companies.columns.name')}</TableCell>
              <TableCell>{t('companies.columns.email')}</TableCell>
              <TableCell>{t('companies.columns.plan')}</TableCell>
              <TableCell align="center">{t('companies.columns.status')}</TableCell>
              <TableCell align="center">{t('companies.columns.recurrence')}</TableCell>
              <TableCell align="center">{t('companies.columns.dueDate')}</TableCell>
              <TableCell align="center">{t('companies.columns.createdAt')}</TableCell>
              <TableCell align="center">{t('companies.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {companies.map((c) => {
              const colour = dueDateColour(c.dueDate, today);
              const platform = c.id === PLATFORM_COMPANY_ID;
              return (
                <TableRow
                  key={c.id}
                  hover
                  data-testid={`company-row-${c.id}`}
                  data-due={colour ?? 'none'}
                  sx={{
                    bgcolor: (th) =>
                      colour === 'red' ? alpha(th.palette.error.main, 0.25) : colour === 'yellow' ? alpha(DUE_YELLOW, 0.35) : undefined,
                  }}
                >
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.email}</TableCell>
                  <TableCell>{c.plan?.name ?? '—'}</TableCell>
                  <TableCell align="center">{c.status ? t('companies.dialog.yes') : t('companies.dialog.no')}</TableCell>
                  <TableCell align="center">{t(`companies.recurrences.${c.recurrence}`)}</TableCell>
                  <TableCell align="center" data-testid={`company-due-${c.id}`}>
                    {formatDate(c.dueDate)}
                  </TableCell>
                  <TableCell align="center">{formatDate(c.createdAt)}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('ui.actions.edit')}>
                      <IconButton size="small" aria-label={t('ui.actions.edit')} onClick={() => setEditing({ company: c })} data-testid={`company-edit-${c.id}`}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {!platform && (
                      <Tooltip title={t('companies.renew.action')}>
                        <IconButton size="small" aria-label={t('companies.renew.action')} onClick={() => setRenewing(c)} data-testid={`company-renew-${c.id}`}>
                          <EventRepeatIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {!platform && (
                      <Tooltip title={t('ui.actions.delete')}>
                        <IconButton size="small" aria-label={t('ui.actions.delete')} onClick={() => setDeleting(c)} data-testid={`company-delete-${c.id}`}>
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
            <TableStateRow
              colSpan={COLUMNS}
              loading={pages.isPending}
              error={pages.isError && companies.length === 0}
              empty={!pages.isPending && !pages.isError && companies.length === 0}
              onRetry={() => void pages.refetch()}
            />
            <LoadingMoreRow colSpan={COLUMNS} show={pages.isFetchingNextPage} />
          </TableBody>
        </Table>
      </Paper>
      <Box>
        {editing && <CompanyDialog company={editing.company} onClose={() => setEditing(null)} />}
        <ConfirmDialog
          open={renewing !== null}
          title={t('companies.renew.title', { name: renewing?.name ?? '' })}
          confirmLabel={t('companies.renew.confirm')}
          onClose={() => setRenewing(null)}
          onConfirm={async () => {
            if (!renewing) return;
            try {
              const company = await renew.mutateAsync(renewing.id);
              toast.success(t('companies.toasts.renewed', { date: formatDate(company.dueDate) }));
            } catch (err) {
              toastError(err);
            }
          }}
        >
          {renewing &&
            t('companies.renew.message', {
              from: formatDate(renewing.dueDate) || '—',
              to: formatDate(renewDueDate(renewing.dueDate, renewing.recurrence, today)),
              recurrence: t(`companies.recurrences.${renewing.recurrence}`),
            })}
        </ConfirmDialog>
        <ConfirmDeleteDialog
          record={deleting}
          title={t('companies.confirmDelete.title', { name: deleting?.name ?? '' })}
          deletedText={t('companies.toasts.deleted')}
          remove={(id) => remove.mutateAsync(id)}
          onClose={() => setDeleting(null)}
        >
          {t('companies.confirmDelete.message')}
        </ConfirmDeleteDialog>
      </Box>
    </Stack>
  );
}
