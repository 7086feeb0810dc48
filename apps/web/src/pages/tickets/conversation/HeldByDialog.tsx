import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@balcao/contracts';

/** Spec 2 §2 'ticket already open': the contact's ticket is held by another user, named with its queue. */
export function HeldByDialog({ ticket, onClose }: { ticket: Ticket | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={ticket !== null} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="held-by-title">
      <DialogTitle id="held-by-title">{t('conversation.heldBy.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography>
          {t('conversation.heldBy.message', { user: ticket?.user?.name ?? '—', queue: ticket?.queue?.name ?? t('conversation.noQueue') })}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('conversation.actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
