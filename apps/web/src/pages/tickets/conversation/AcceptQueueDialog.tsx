import { useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useQueueOptions } from '../list/useQueueOptions';

interface Props {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onConfirm: (queueId: number) => void;
}

/** Spec 2 §4: accepting (or reopening) a ticket without a queue first asks which queue (from the list or the conversation). */
export function AcceptQueueDialog({ open, busy, onClose, onConfirm }: Props) {
  const { t } = useTranslation();
  const queues = useQueueOptions();
  const [queueId, setQueueId] = useState<number | ''>('');
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="accept-queue-title">
      <DialogTitle id="accept-queue-title">{t('conversation.acceptQueue.title')}</DialogTitle>
      <DialogContent dividers>
        <TextField
          select
          fullWidth
          label={t('conversation.acceptQueue.queue')}
          value={queueId}
          onChange={(e) => setQueueId(Number(e.target.value))}
          slotProps={{ select: { inputProps: { 'aria-label': t('conversation.acceptQueue.queue') } } }}
        >
          {queues.map((q) => (
            <MenuItem key={q.id} value={q.id}>
              {q.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('conversation.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={busy || queueId === ''}
          onClick={() => queueId !== '' && onConfirm(queueId)}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('conversation.acceptQueue.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
