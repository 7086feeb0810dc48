import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { ANNOUNCEMENT_PRIORITIES, FORM_SUBMIT_DELAY_MS, createAnnouncementBody, type Announcement } from '@balcao/contracts';
import { sleep } from '../../components/form';
import { FileInput } from '../../components/fields/FileInput';
import { SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { TextInput } from '../../components/fields/TextInputs';
import { FormDialogActions } from '../../components/FormDialogActions';
import { toast, toastError } from '../../components/toast';
import { useSaveAnnouncement } from './queries';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

/** Spec 3 §5: the image is a .png, .jpg or .jpeg (the server checks the bytes too). */
const IMAGE_NAME = /\.(png|jpe?g)$/i;
const formSchema = createAnnouncementBody.extend({
  file: z.custom<File | null>((v) => v === null || (v instanceof File && IMAGE_NAME.test(v.name)), 'image'),
});
type FormIn = z.input<typeof formSchema>;
type FormOut = z.output<typeof formSchema>;

interface Props {
  announcement: Announcement | null;
  onClose: () => void;
}

/** The announcement modal (spec 3 §2, §5): title and text required, status, priority 1/2/3, an optional image. */
export function AnnouncementDialog({ announcement, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveAnnouncement();
  const [removeMedia, setRemoveMedia] = useState(false);
  const {
    control,
    handleSubmit,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      title: announcement?.title ?? '',
      text: announcement?.text ?? '',
      status: announcement?.status ?? true,
      priority: announcement?.priority ?? 3,
      file: null,
    },
  });
  const chosen = watch('file');
  const currentImage = removeMedia ? null : announcement?.mediaName;

  const onSubmit = async ({ file, ...body }: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: announcement?.id ?? null, body, file, removeMedia });
      toast.success(t('announcements.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const required = () => t('announcements.dialog.required');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="announcement-dialog">
      <ClosableDialogTitle closeLabel={t('announcements.dialog.close')} onClose={onClose}>
        {announcement ? t('announcements.dialog.editTitle') : t('announcements.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextInput control={control} name="title" label={t('announcements.dialog.title')} required autoFocus errorText={required} testId="announcement-title" />
            <TextInput control={control} name="text" label={t('announcements.dialog.text')} required multiline minRows={4} errorText={required} testId="announcement-text" />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <SelectInput
                control={control}
                name="priority"
                label={t('announcements.dialog.priority')}
                options={ANNOUNCEMENT_PRIORITIES.map((p) => ({ value: p, label: t(`announcements.priority.${p}`) }))}
                testId="announcement-priority"
              />
              <SwitchInput control={control} name="status" label={t('announcements.dialog.status')} testId="announcement-status" />
            </Stack>
            <FileInput
              control={control}
              name="file"
              label={t('announcements.dialog.image')}
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              hint={t('announcements.dialog.imageHint')}
              errorText={() => t('announcements.dialog.imageHint')}
              testId="announcement-file"
            />
            {!chosen && currentImage && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Chip label={currentImage} data-testid="announcement-attachment" />
                <IconButton size="small" aria-label={t('announcements.dialog.removeImage')} onClick={() => setRemoveMedia(true)} data-testid="announcement-remove-image">
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Stack>
            )}
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('announcements.dialog.cancel')}
          submitLabel={announcement ? t('announcements.dialog.save') : t('announcements.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="announcement-submit"
        />
      </Box>
    </Dialog>
  );
}
