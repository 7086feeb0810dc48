import { useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@balcao/contracts';
import { forwardMessages, type ContactOption } from './conversationQueries';
import { toast, toastError } from '../../../components/toast';
import { ContactPicker } from './ContactPicker';

interface Props {
  open: boolean;
  channel: Ticket['channel'];
  messageIds: number[];
  /** The signature toggle is offered only when the company allows signing. */
  signatureAllowed: boolean;
  signatureDefault: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** Forward the selected messages to one or more contacts (spec 2 §5, §7). */
export function ForwardDialog({ open, channel, messageIds, signatureAllowed, signatureDefault, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<Map<number, ContactOption>>(new Map());
  const [sign, setSign] = useState(signatureDefault);
  const [busy, setBusy] = useState(false);
  const toggle = (c: ContactOption) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(c.id)) next.delete(c.id);
      else next.set(c.id, c);
      return next;
    });
  const submit = async () => {
    if (selected.size === 0 || messageIds.length === 0) {
      toast.error(t('conversation.forward.nothingSelected'));
      return;
    }
    setBusy(true);
    try {
      await forwardMessages(messageIds, [...selected.keys()], signatureAllowed && sign);
      toast.success(t('conversation.forward.done'));
      setSelected(new Map());
      onDone();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="forward-title">
      <DialogTitle id="forward-title">{t('conversation.forward.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('conversation.forward.summary', { count: messageIds.length })}
        </Typography>
        <ContactPicker selected={selected} onToggle={toggle} multiple channel={channel} />
        {signatureAllowed && (
          <FormControlLabel control={<Switch checked={sign} onChange={(e) => setSign(e.target.checked)} />} label={t('conversation.composer.signature')} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('conversation.actions.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t('conversation.forward.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
