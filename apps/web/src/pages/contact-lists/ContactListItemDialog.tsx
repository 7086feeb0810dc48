import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import { FORM_SUBMIT_DELAY_MS, createContactListItemBody, type ContactListItem } from '@balcao/contracts';
import { sleep } from '../../components/form';
import { TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { useSaveContactListItem } from './queries';
import './texts';

type FormIn = z.input<typeof createContactListItemBody>;
type FormOut = z.output<typeof createContactListItemBody>;

/** The item dialog (spec 3 §2): name (2 to 50), number (8 to 50), e-mail. */
export function ContactListItemDialog({ listId, item, onClose }: { listId: number; item: ContactListItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveContactListItem(listId);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createContactListItemBody),
    defaultValues: { name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '', contactListId: listId },
  });
  const onSubmit = async (body: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: item?.id ?? null, body });
      toast.success(t('contactLists.items.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="contact-list-item-dialog">
      <ClosableDialogTitle closeLabel={t('contactLists.items.dialog.close')} onClose={onClose}>
        {item ? t('contactLists.items.dialog.editTitle') : t('contactLists.items.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextInput control={control} name="name" label={t('contactLists.items.dialog.name')} required autoFocus testId="contact-list-item-name" />
            <TextInput control={control} name="number" label={t('contactLists.items.dialog.number')} required type="tel" testId="contact-list-item-number" />
            <TextInput control={control} name="email" label={t('contactLists.items.dialog.email')} type="email" testId="contact-list-item-email" />
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('contactLists.items.dialog.cancel')}
          submitLabel={item ? t('contactLists.items.dialog.save') : t('contactLists.items.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="contact-list-item-submit"
        />
      </Box>
    </Dialog>
  );
}
