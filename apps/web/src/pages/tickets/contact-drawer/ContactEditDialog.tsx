import { useMemo } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { FORM_SUBMIT_DELAY_MS, maskNumber, type Contact } from '@balcao/contracts';
import { useContact, useCreateContact, useUpdateContact } from '../../../api/contacts';
import { useUser } from '../../../api/session';
import { FormDialogActions } from '../../../components/FormDialogActions';
import { ListState } from '../../../components/ListStates';
import { fieldErrorText, sleep } from '../../../components/form';
import { toast, toastError } from '../../../components/toast';
import {
  contactFormSchema,
  contactFormValues,
  contactUpdateBody,
  emptyContactForm,
  serializeExtraInfo,
  type ContactFormIn,
  type ContactFormOut,
} from './contactForm';
import { shouldMaskNumber } from './contactView';
import { ClosableDialogTitle } from '../../../components/ClosableDialogTitle';

interface Props {
  /** null: a new contact (the contacts page's add button). */
  contactId: number | null;
  open: boolean;
  onClose: () => void;
  title?: string;
}

/** The contact dialog of the inbox and the contacts page (spec 2 §2, §5): name, number, e-mail, chatbot switch and extra-info rows. */
export function ContactEditDialog({ contactId, open, onClose, title }: Props) {
  const { t } = useTranslation();
  const contact = useContact(open ? contactId : null);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="contact-edit-dialog">
      <ClosableDialogTitle closeLabel={t('contactDrawer.dialog.close')} onClose={onClose}>
        {title ?? t('contactDrawer.dialog.title')}
      </ClosableDialogTitle>
      {contactId === null ? (
        <ContactForm contact={null} onClose={onClose} />
      ) : contact.data && !contact.isPlaceholderData ? (
        <ContactForm key={contact.data.id} contact={contact.data} onClose={onClose} />
      ) : (
        <DialogContent dividers>
          <ListState
            loading={contact.isPending}
            error={contact.isError}
            empty={false}
            onRetry={() => void contact.refetch()}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ContactForm({ contact, onClose }: { contact: Contact | null; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const save = useUpdateContact();
  const create = useCreateContact();
  const numberEditable = !contact || !shouldMaskNumber(user, contact);
  const schema = useMemo(() => contactFormSchema(contact ?? { number: '' }), [contact]);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<ContactFormIn, unknown, ContactFormOut>({ resolver: zodResolver(schema), defaultValues: contact ? contactFormValues(contact) : emptyContactForm });
  const rows = useFieldArray({ control, name: 'extraInfo' });

  const onSubmit = async (values: ContactFormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      if (contact) await save.mutateAsync({ id: contact.id, body: contactUpdateBody(values, contact) });
      else await create.mutateAsync({ ...values, number: values.number.trim(), extraInfo: serializeExtraInfo(values.extraInfo) });
      toast.success(t('contactDrawer.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const text = (name: 'name' | 'number' | 'email', label: string, required: boolean) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          value={name === 'number' && !numberEditable ? maskNumber(field.value ?? '') : (field.value ?? '')}
          disabled={name === 'number' && !numberEditable}
          label={label}
          fullWidth
          size="small"
          required={required}
          autoFocus={name === 'name'}
          type={name === 'email' ? 'email' : 'text'}
          error={!!fieldState.error}
          helperText={fieldErrorText(fieldState.error)}
          slotProps={{ htmlInput: { 'data-testid': `contact-form-${name}` } }}
        />
      )}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="subtitle2" color="primary">
            {t('contactDrawer.dialog.data')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {text('name', t('contactDrawer.dialog.name'), true)}
            {text('number', t('contactDrawer.dialog.number'), numberEditable)}
          </Stack>
          {text('email', t('contactDrawer.dialog.email'), false)}
          <Controller
            name="disableBot"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                label={t('contactDrawer.dialog.disableBot')}
                control={
                  <Switch
                    checked={field.value}
                    onChange={(e) => field.onChange(e.target.checked)}
                    slotProps={{ input: { 'data-testid': 'contact-form-disableBot' } as object }}
                  />
                }
              />
            )}
          />
          <Typography variant="subtitle2" color="primary">
            {t('contactDrawer.dialog.extraInfo')}
          </Typography>
          {rows.fields.map((row, index) => (
            <Stack key={row.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="contact-extra-row">
              <Controller
                name={`extraInfo.${index}.name`}
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('contactDrawer.dialog.extraName')}
                    size="small"
                    fullWidth
                    error={!!fieldState.error}
                    helperText={fieldErrorText(fieldState.error)}
                  />
                )}
              />
              <Controller
                name={`extraInfo.${index}.value`}
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('contactDrawer.dialog.extraValue')}
                    size="small"
                    fullWidth
                    error={!!fieldState.error}
                    helperText={fieldErrorText(fieldState.error)}
                  />
                )}
              />
              <IconButton aria-label={t('contactDrawer.dialog.removeExtra', { index: index + 1 })} onClick={() => rows.remove(index)}>
                <DeleteOutlineIcon />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button startIcon={<AddIcon />} onClick={() => rows.append({ name: '', value: '' })} data-testid="contact-extra-add">
              {t('contactDrawer.dialog.addExtra')}
            </Button>
          </Box>
        </Stack>
      </DialogContent>
      <FormDialogActions
        cancelLabel={t('contactDrawer.dialog.cancel')}
        submitLabel={t('contactDrawer.dialog.save')}
        submitting={isSubmitting}
        onCancel={onClose}
        testId="contact-submit"
      />
    </Box>
  );
}
