import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import { FORM_SUBMIT_DELAY_MS, contactListBody, type ContactList } from '@balcao/contracts';
import { sleep } from '../../components/form';
import { TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { useSaveContactList } from './queries';
import './texts';

/** The list dialog of /contact-lists: its name (2 to 50). */
export function ContactListDialog({ list, onClose }: { list: ContactList | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveContactList();
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<z.input<typeof contactListBody>, unknown, z.output<typeof contactListBody>>({
    resolver: zodResolver(contactListBody),
    defaultValues: { name: list?.name ?? '' },
  });
  const onSubmit = async (body: z.output<typeof contactListBody>) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: list?.id ?? null, body });
      toast.success(t('contactLists.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="contact-list-dialog">
      <ClosableDialogTitle closeLabel={t('contactLists.dialog.close')} onClose={onClose}>
        {list ? t('contactLists.dialog.editTitle') : t('contactLists.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <TextInput control={control} name="name" label={t('contactLists.dialog.name')} required autoFocus testId="contact-list-name" />
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('contactLists.dialog.cancel')}
          submitLabel={list ? t('contactLists.dialog.save') : t('contactLists.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="contact-list-submit"
        />
      </Box>
    </Dialog>
  );
}
