import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { CloseAllTicketsBody } from '@balcao/contracts';
import { useCloseAllTickets } from './ticketQueries';
import { toast, toastError } from '../../../components/toast';

interface Props {
  open: boolean;
  /** The list being closed (open or pending) and the queues selected in the inbox. */
  status: CloseAllTicketsBody['status'];
  queueIds: number[];
  onClose: () => void;
}

/** Admin: close every ticket of this status in the selected queues, after a yes/no question (spec 2 §2, §4). */
export function CloseAllDialog({ open, status, queueIds, onClose }: Props) {
  const { t } = useTranslation();
  const closeAll = useCloseAllTickets();
  const confirm = () =>
    closeAll.mutate(
      { status, selectedQueueIds: queueIds },
      {
        onSuccess: () => toast.success(t('tickets.closeAll.done')),
        onError: toastError,
        onSettled: onClose,
      },
    );
  return (
    <Dialog open={open} onClose={closeAll.isPending ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="close-all-title">
      <DialogTitle id="close-all-title">{t('tickets.closeAll.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('tickets.closeAll.message')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={closeAll.isPending}>
          {t('tickets.closeAll.no')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={confirm}
          disabled={closeAll.isPending}
          startIcon={closeAll.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('tickets.closeAll.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
