import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';

interface Props {
  open: boolean;
  queues: { id: number; name: string }[];
  busy: boolean;
  onClose: () => void;
  onConfirm: (queueId: number) => void;
}

/** Accepting a pending ticket without a queue asks for one first (spec 2 §4 "Accept"). */
export function AcceptQueueDialog({ open, queues, busy, onClose, onConfirm }: Props) {
  const { t } = useTranslation();
  const [queueId, setQueueId] = useState<number | ''>('');
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="accept-queue-title">
      <DialogTitle id="accept-queue-title">{t('tickets.accept.title')}</DialogTitle>
      <DialogContent dividers>
        <FormControl fullWidth size="small">
          <InputLabel id="accept-queue-label">{t('tickets.newTicket.queue')}</InputLabel>
          <Select
            labelId="accept-queue-label"
            label={t('tickets.newTicket.queue')}
            value={queueId}
            onChange={(e) => setQueueId(Number(e.target.value) || '')}
          >
            {queues.map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('tickets.accept.cancel')}
        </Button>
        <Button variant="contained" disabled={queueId === '' || busy} onClick={() => queueId !== '' && onConfirm(queueId)}>
          {t('tickets.accept.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
