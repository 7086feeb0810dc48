import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FORM_SUBMIT_DELAY_MS, type Chat } from '@balcao/contracts';
import { useUser } from '../../api/session';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { FormDialogActions } from '../../components/FormDialogActions';
import { sleep } from '../../components/form';
import { toast, toastError } from '../../components/toast';
import { useCompanyUsers, useSaveChat } from './queries';
import './texts';

interface Option {
  id: number;
  name: string;
}

/** Creates or edits a chat (spec 3 §2, §5): a title and at least one other user, else Save stays disabled. */
export function ChatDialog({ chat, onClose, onSaved }: { chat: Chat | null; onClose: () => void; onSaved: (chat: Chat) => void }) {
  const { t } = useTranslation();
  const me = useUser();
  const users = useCompanyUsers(true);
  const save = useSaveChat();
  const [title, setTitle] = useState(chat?.title ?? '');
  const [picked, setPicked] = useState<Option[]>(chat ? chat.users.filter((u) => u.userId !== me.id).map((u) => u.user) : []);
  const [submitting, setSubmitting] = useState(false);
  const options = (users.data ?? []).filter((u) => u.id !== me.id).map((u) => ({ id: u.id, name: u.name }));
  const ready = title.trim().length > 0 && picked.length > 0;

  const submit = async () => {
    if (!ready) return;
    setSubmitting(true);
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      const saved = await save.mutateAsync({ id: chat?.id ?? null, body: { title: title.trim(), users: picked.map((u) => u.id) } });
      toast.success(t('chats.toasts.saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="chat-dialog">
      <ClosableDialogTitle closeLabel={t('chats.dialog.close')} onClose={onClose}>
        {chat ? t('chats.dialog.editTitle') : t('chats.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        sx={{ display: 'contents' }}
      >
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('chats.dialog.title')}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              required
              autoFocus
              size="small"
              slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'chat-title' } }}
            />
            <Autocomplete
              multiple
              options={options}
              value={picked}
              loading={users.isPending}
              onChange={(_e, value) => setPicked(value)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => <TextField {...params} label={t('chats.dialog.users')} size="small" slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'chat-users' } }} />}
              data-testid="chat-users-field"
            />
          </Stack>
        </DialogContent>
        <FormDialogActions cancelLabel={t('chats.dialog.close')} submitLabel={t('chats.dialog.save')} submitting={submitting}
          submitDisabled={!ready} onCancel={onClose} testId="chat-save" />
      </Box>
    </Dialog>
  );
}
