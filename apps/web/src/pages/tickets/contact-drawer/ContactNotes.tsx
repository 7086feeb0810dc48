import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { createTicketNoteBody, type TicketNote } from '@balcao/contracts';
import { useAddNote, useDeleteNote, useTicketNotes } from '../../../api/notes';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ListState } from '../../../components/ListStates';
import { fieldErrorText } from '../../../components/form';
import { formatDateTime } from '../../../components/format';
import { toast, toastError } from '../../../components/toast';

const noteForm = createTicketNoteBody.pick({ note: true });
type NoteIn = z.input<typeof noteForm>;
type NoteOut = z.output<typeof noteForm>;

/** The ticket's notes about its contact (spec 2 §2, §5, §8): add (required, min 2), newest first, delete with confirmation. */
export function ContactNotes({ ticketId, contactId }: { ticketId: number; contactId: number }) {
  const { t } = useTranslation();
  const notes = useTicketNotes(ticketId, contactId);
  const add = useAddNote();
  const remove = useDeleteNote(ticketId, contactId);
  const [deleting, setDeleting] = useState<TicketNote | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    formState: { isSubmitting },
  } = useForm<NoteIn, unknown, NoteOut>({ resolver: zodResolver(noteForm), defaultValues: { note: '' } });

  const onSubmit = async ({ note }: NoteOut) => {
    try {
      await add.mutateAsync({ note, ticketId, contactId });
      reset({ note: '' });
      toast.success(t('contactDrawer.toasts.noteAdded'));
    } catch (err) {
      toastError(err);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('contactDrawer.toasts.noteDeleted'));
    } catch (err) {
      toastError(err);
    }
  };

  const list = notes.data ?? [];
  return (
    <Box data-testid="contact-notes">
      <Stack component="form" noValidate spacing={1} onSubmit={(e) => void handleSubmit(onSubmit)(e)}>
        <Controller
          name="note"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('contactDrawer.notes.field')}
              placeholder={t('contactDrawer.notes.placeholder')}
              multiline
              minRows={2}
              maxRows={8}
              size="small"
              fullWidth
              error={!!fieldState.error}
              helperText={fieldErrorText(fieldState.error)}
              slotProps={{ htmlInput: { 'aria-label': t('contactDrawer.notes.field'), 'data-testid': 'contact-note-input' } }}
            />
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="small"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={14} color="inherit" /> : undefined}
          aria-label={t('contactDrawer.notes.add')}
          sx={{ alignSelf: 'flex-end' }}
          data-testid="contact-note-add"
        >
          {t('contactDrawer.notes.add')}
        </Button>
      </Stack>
      <ListState
        loading={notes.isPending}
        error={notes.isError}
        empty={list.length === 0}
        onRetry={() => void notes.refetch()}
        emptyText={t('contactDrawer.notes.empty')}
      />
      {list.length > 0 && (
        <List dense disablePadding aria-label={t('contactDrawer.notes.title')} sx={{ mt: 1 }}>
          {list.map((note) => (
            <ListItem
              key={note.id}
              divider
              disableGutters
              data-testid="contact-note"
              secondaryAction={
                <IconButton edge="end" size="small" aria-label={t('contactDrawer.notes.delete')} onClick={() => setDeleting(note)}>
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              }
              sx={{ pr: 5, alignItems: 'flex-start' }}
            >
              <ListItemText
                primary={note.note}
                secondary={t('contactDrawer.notes.by', {
                  name: note.user?.name ?? t('contactDrawer.notes.unknownAuthor'),
                  date: formatDateTime(note.createdAt),
                })}
                slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('contactDrawer.notes.confirmTitle')}
        confirmLabel={t('contactDrawer.notes.confirm')}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
      >
        {t('contactDrawer.notes.confirmMessage')}
      </ConfirmDialog>
    </Box>
  );
}
