import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '@balcao/contracts';
import { searchUsers, type UserOption } from './conversationQueries';
import { useQueues } from '../../../api/queues';
import { errorText } from '../../../components/toast';
import { USER_SEARCH_MIN, useDebounced } from './search';

interface Props {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onTransfer: (queueId: number, userId: number | null, note: string) => Promise<boolean>;
}

/** Spec 2 §4: a new queue (required), optionally a user, and a note of 5 rows. */
export function TransferDialog({ open, busy, onClose, onTransfer }: Props) {
  const { t } = useTranslation();
  const queues = useQueues(open);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [user, setUser] = useState<UserOption | null>(null);
  const [term, setTerm] = useState('');
  const [note, setNote] = useState('');
  const search = useDebounced(term.trim(), SEARCH_DEBOUNCE_MS);
  const users = useQuery({
    queryKey: ['conversation', 'userSearch', search],
    queryFn: ({ signal }) => searchUsers(search, signal),
    enabled: open && search.length >= USER_SEARCH_MIN,
  });
  const reset = () => {
    setQueueId('');
    setUser(null);
    setTerm('');
    setNote('');
  };
  const submit = async () => {
    if (queueId === '') return;
    if (await onTransfer(queueId, user?.id ?? null, note)) {
      reset();
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="transfer-title">
      <DialogTitle id="transfer-title">{t('conversation.transfer.title')}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Autocomplete
          options={term.trim().length >= USER_SEARCH_MIN ? (users.data ?? []) : []}
          value={user}
          onChange={(_, v) => setUser(v)}
          inputValue={term}
          onInputChange={(_, v) => setTerm(v)}
          getOptionLabel={(u) => u.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(x) => x}
          loading={users.isFetching}
          noOptionsText={
            term.trim().length < USER_SEARCH_MIN
              ? t('conversation.transfer.typeToSearch')
              : users.isError
                ? errorText(users.error)
                : t('conversation.transfer.noUsers')
          }
          renderInput={(params) => <TextField {...params} label={t('conversation.transfer.user')} />}
        />
        <TextField
          select
          required
          label={t('conversation.transfer.queue')}
          value={queueId}
          onChange={(e) => setQueueId(Number(e.target.value))}
          slotProps={{ select: { inputProps: { 'aria-label': t('conversation.transfer.queue') } } }}
        >
          {(queues.data ?? []).map((q) => (
            <MenuItem key={q.id} value={q.id}>
              {q.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          multiline
          rows={5}
          label={t('conversation.transfer.note')}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 5000 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('conversation.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={busy || queueId === ''}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('conversation.transfer.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
