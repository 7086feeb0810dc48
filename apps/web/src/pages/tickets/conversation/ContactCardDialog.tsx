import { useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import type { ContactOption } from './conversationQueries';
import { ContactPicker } from './ContactPicker';

interface Props {
  open: boolean;
  onClose: () => void;
  onSend: (contact: ContactOption) => Promise<unknown>;
}

/** Pick one contact and send it as a contact card (vCard). */
export function ContactCardDialog({ open, onClose, onSend }: Props) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<ContactOption | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!choice) return;
    setBusy(true);
    try {
      await onSend(choice);
      setChoice(null);
      onClose();
    } catch {
      // Reported by the caller; keep the dialog open.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="contact-card-title">
      <DialogTitle id="contact-card-title">{t('conversation.contactCard.title')}</DialogTitle>
      <DialogContent dividers>
        <ContactPicker selected={new Map(choice ? [[choice.id, choice]] : [])} onToggle={(c) => setChoice(c)} multiple={false} channel={null} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('conversation.actions.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={busy || !choice} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t('conversation.actions.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
