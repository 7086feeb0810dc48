import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { FORM_SUBMIT_DELAY_MS, canEditQuickMessage, createQuickMessageBody, type QuickMessage } from '@balcao/contracts';
import { useUser } from '../../api/session';
import { sleep } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { EmojiPicker } from '../tickets/conversation/EmojiPicker';
import { useSaveQuickMessage } from './queries';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

type FormIn = z.input<typeof createQuickMessageBody>;
type FormOut = z.output<typeof createQuickMessageBody>;

interface Props {
  reply: QuickMessage | null;
  onClose: () => void;
}

/**
 * The quick-reply modal (spec 2 §2, §5): shortcode, message with the emoji picker, the
 * visibility (`visao`) and general (`geral`) selectors and one attachment. Another user's
 * non-general reply opens read-only (docs/tags-and-quick-messages.md).
 */
export function QuickMessageDialog({ reply, onClose }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const save = useSaveQuickMessage();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const readOnly = reply !== null && !canEditQuickMessage(reply, me);
  const {
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createQuickMessageBody),
    defaultValues: { shortcode: reply?.shortcode ?? '', message: reply?.message ?? '', visao: reply?.visao ?? true, geral: reply?.geral ?? false },
  });
  const yesNo = [
    { value: true, label: t('quickMessages.dialog.yes') },
    { value: false, label: t('quickMessages.dialog.no') },
  ];
  const attachmentName = file?.name ?? (removeMedia ? null : reply?.mediaName);

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: reply?.id ?? null, body: values, file, removeMedia });
      toast.success(t('quickMessages.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const title = reply ? (readOnly ? t('quickMessages.dialog.viewTitle') : t('quickMessages.dialog.editTitle')) : t('quickMessages.dialog.addTitle');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="quick-message-dialog">
      <ClosableDialogTitle closeLabel={t('quickMessages.dialog.close')} onClose={onClose}>
        {title}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {readOnly && <Alert severity="info">{t('quickMessages.dialog.readOnly')}</Alert>}
            <TextInput
              control={control}
              name="shortcode"
              label={t('quickMessages.dialog.shortcode')}
              hint={t('quickMessages.dialog.shortcodeHint')}
              required
              autoFocus
              disabled={readOnly}
              errorText={(e) => e.message}
              testId="quick-message-shortcode"
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextInput control={control} name="message" label={t('quickMessages.dialog.message')} multiline minRows={4} disabled={readOnly} testId="quick-message-text" />
              <EmojiPicker disabled={readOnly} onPick={(emoji) => setValue('message', `${getValues('message') ?? ''}${emoji}`, { shouldDirty: true })} />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectInput control={control} name="visao" label={t('quickMessages.dialog.visao')} options={yesNo} disabled={readOnly} testId="quick-message-visao" />
              <SelectInput control={control} name="geral" label={t('quickMessages.dialog.geral')} options={yesNo} disabled={readOnly} testId="quick-message-geral" />
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <input
                ref={fileInput}
                type="file"
                hidden
                aria-label={t('quickMessages.dialog.attach')}
                data-testid="quick-message-file"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  e.target.value = '';
                }}
              />
              <Button variant="outlined" startIcon={<AttachFileIcon />} disabled={readOnly} onClick={() => fileInput.current?.click()} data-testid="quick-message-attach">
                {t('quickMessages.dialog.attach')}
              </Button>
              {attachmentName && <Chip label={attachmentName} data-testid="quick-message-attachment" />}
              {attachmentName && !readOnly && (
                <IconButton
                  size="small"
                  aria-label={t('quickMessages.dialog.removeAttachment')}
                  data-testid="quick-message-remove-attachment"
                  onClick={() => {
                    setFile(null);
                    setRemoveMedia(true);
                  }}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              )}
            </Stack>
          </Stack>
        </DialogContent>
        {readOnly ? (
          <Box sx={{ p: 1.5, display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={onClose}>{t('quickMessages.dialog.close')}</Button>
          </Box>
        ) : (
          <FormDialogActions
            cancelLabel={t('quickMessages.dialog.cancel')}
            submitLabel={reply ? t('quickMessages.dialog.save') : t('quickMessages.dialog.add')}
            submitting={isSubmitting}
            onCancel={onClose}
            testId="quick-message-submit"
          />
        )}
      </Box>
    </Dialog>
  );
}
