import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { FORM_SUBMIT_DELAY_MS, saveFileListBody, type FileList } from '@balcao/contracts';
import { useSaveFileList } from '../../api/fileLists';
import { sleep } from '../../components/form';
import { FileInput } from '../../components/fields/FileInput';
import { TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import './texts';

/** The saved list's body plus, per option, the file chosen in the dialog (uploaded after the save). */
const formSchema = saveFileListBody.extend({
  options: z.array(z.object({ id: z.number().optional(), name: z.string().trim().min(1, 'Obrigatório').max(200), file: z.instanceof(File).nullable(), url: z.string().nullable() })),
});
type FormIn = z.input<typeof formSchema>;
type FormOut = z.output<typeof formSchema>;

/** The file-list dialog (spec 3 §2): name (min 3 'nome muito curto'), message, and repeatable options, each a name and a file. */
export function FileListDialog({ record, onClose }: { record: FileList | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveFileList();
  const {
    control,
    handleSubmit,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      name: record?.name ?? '',
      message: record?.message ?? '',
      options: (record?.options ?? []).map((o) => ({ id: o.id, name: o.name, file: null, url: o.url })),
    },
  });
  const options = useFieldArray({ control, name: 'options' });

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({
        id: record?.id ?? null,
        body: { name: values.name, message: values.message, options: values.options.map((o) => ({ id: o.id, name: o.name })) },
        files: values.options.map((o) => o.file),
      });
      toast.success(t('fileLists.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="file-list-dialog">
      <ClosableDialogTitle closeLabel={t('fileLists.dialog.close')} onClose={onClose}>
        {record ? t('fileLists.dialog.editTitle') : t('fileLists.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextInput control={control} name="name" label={t('fileLists.dialog.name')} required autoFocus errorText={(e) => e.message} testId="file-list-name" />
            <TextInput control={control} name="message" label={t('fileLists.dialog.message')} required multiline minRows={3} errorText={(e) => e.message} testId="file-list-message" />
            <Typography variant="subtitle2" component="h2">
              {t('fileLists.dialog.options')}
            </Typography>
            {options.fields.map((option, i) => {
              const url = watch(`options.${i}.url`);
              return (
                <Stack key={option.id} direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }} data-testid={`file-list-option-${i}`}>
                  <TextInput control={control} name={`options.${i}.name`} label={t('fileLists.dialog.optionName')} required errorText={(e) => e.message} testId={`file-list-option-name-${i}`} />
                  <FileInput control={control} name={`options.${i}.file`} label={t('fileLists.dialog.optionFile')} testId={`file-list-option-file-${i}`} sx={{ minWidth: 220 }} />
                  {url && (
                    <Link href={url} target="_blank" rel="noopener noreferrer" variant="body2" data-testid={`file-list-option-current-${i}`}>
                      {t('fileLists.dialog.currentFile')}
                    </Link>
                  )}
                  <IconButton aria-label={t('fileLists.dialog.removeOption')} onClick={() => options.remove(i)} data-testid={`file-list-option-remove-${i}`}>
                    <DeleteOutlineIcon />
                  </IconButton>
                </Stack>
              );
            })}
            <Box>
              <Button variant="outlined" startIcon={<AddIcon />} onClick={() => options.append({ name: '', file: null, url: null })} data-testid="file-list-add-option">
                {t('fileLists.dialog.addOption')}
              </Button>
            </Box>
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('fileLists.dialog.cancel')}
          submitLabel={record ? t('fileLists.dialog.save') : t('fileLists.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="file-list-submit"
        />
      </Box>
    </Dialog>
  );
}
