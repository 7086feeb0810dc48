import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ExistingTicket } from './conflict';

/** 'Ticket already open': names the user (and queue) who holds the contact's ticket (spec 2 §4, §8). */
export function TicketAlreadyOpenDialog({ ticket, onClose }: { ticket: ExistingTicket | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={ticket !== null} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="ticket-already-open-title">
      <DialogTitle id="ticket-already-open-title">{t('tickets.alreadyOpen.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {ticket?.queueName
            ? t('tickets.alreadyOpen.message', { user: ticket.userName, queue: ticket.queueName })
            : t('tickets.alreadyOpen.messageNoQueue', { user: ticket?.userName ?? '' })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus>
          {t('tickets.alreadyOpen.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
