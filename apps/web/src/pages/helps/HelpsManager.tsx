import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { FORM_SUBMIT_DELAY_MS, createHelpBody, type Help } from '@balcao/contracts';
import { useDeleteHelp, useHelpsList, useSaveHelp } from '../../api/helps';
import { sleep, toastSaveError } from '../../components/form';
import { TextInput } from '../../components/fields/TextInputs';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { toast } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

type FormIn = z.input<typeof createHelpBody>;
type FormOut = z.output<typeof createHelpBody>;

function HelpDialog({ help, onClose }: { help: Help | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveHelp();
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createHelpBody),
    defaultValues: { title: help?.title ?? '', description: help?.description ?? '', video: help?.video ?? '' },
  });

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: help?.id ?? null, body: values });
      toast.success(t('helps.toasts.saved'));
      onClose();
    } catch (err) {
      toastSaveError(err, t('helps.toasts.saveFailed'));
    }
  };

  const field = (name: 'title' | 'description' | 'video', label: string, extra: { multiline?: boolean; helper?: string; required?: boolean } = {}) => (
    <TextInput control={control} name={name} label={label} required={extra.required} multiline={extra.multiline} hint={extra.helper} testId={`help-${name}`} />
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="help-dialog">
      <ClosableDialogTitle closeLabel={t('helps.dialog.close')} onClose={onClose}>
        {help ? t('helps.dialog.editTitle') : t('helps.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {field('title', t('helps.dialog.title'), { required: true })}
            {field('video', t('helps.dialog.video'), { helper: t('helps.dialog.videoHint') })}
            {field('description', t('helps.dialog.description'), { multiline: true })}
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('helps.dialog.cancel')}
          submitLabel={help ? t('helps.dialog.save') : t('helps.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="help-submit"
        />
      </Box>
    </Dialog>
  );
}

/** Settings → helps (super user): create, edit and delete help videos. */
export function HelpsManager() {
  const { t } = useTranslation();
  const helps = useHelpsList(true);
  const remove = useDeleteHelp();
  const [editing, setEditing] = useState<{ help: Help | null } | null>(null);
  const list = helps.data ?? [];

  return (
    <Stack spacing={2} data-testid="helps-manager">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ help: null })} data-testid="helps-add">
          {t('helps.manager.add')}
        </Button>
      </Box>
      <Paper variant="outlined" sx={{ overflow: 'auto' }}>
        <ListTable
          testId="helps-table"
          state={{ loading: helps.isPending, error: helps.isError, empty: helps.isSuccess && list.length === 0, onRetry: () => void helps.refetch() }}
          columns={[
            { label: t('helps.manager.columns.title') },
            { label: t('helps.manager.columns.description') },
            { label: t('helps.manager.columns.video') },
            { label: t('helps.manager.columns.actions'), align: 'center' },
          ]}
        >
          {list.map((help) => (
            <TableRow key={help.id} hover data-testid={`help-row-${help.id}`}>
              <TableCell>{help.title}</TableCell>
              <TableCell>
                <Typography variant="body2" noWrap sx={{ maxWidth: 360 }}>
                  {help.description}
                </Typography>
              </TableCell>
              <TableCell>{help.video}</TableCell>
              <RowActions
                id={help.id}
                testIdPrefix="help"
                onEdit={() => setEditing({ help })}
                remove={{
                  title: t('helps.confirmDelete.title', { title: help.title }),
                  message: t('helps.confirmDelete.message'),
                  deletedText: t('helps.toasts.deleted'),
                  run: (id) => remove.mutateAsync(id),
                }}
              />
            </TableRow>
          ))}
        </ListTable>
      </Paper>
      {editing && <HelpDialog help={editing.help} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
