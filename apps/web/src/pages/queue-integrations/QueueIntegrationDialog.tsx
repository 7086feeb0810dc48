import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import {
  DIALOGFLOW_LANGUAGES,
  FORM_SUBMIT_DELAY_MS,
  QUEUE_INTEGRATION_TYPES,
  SECRET_MASK,
  TYPEBOT_DEFAULTS,
  createQueueIntegrationBody,
  type QueueIntegration,
} from '@balcao/contracts';
import { useSaveQueueIntegration, useTestQueueIntegration } from '../../api/queueIntegrations';
import { sleep } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { NumberInput, TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import './texts';

type FormIn = z.input<typeof createQueueIntegrationBody>;
type FormOut = z.output<typeof createQueueIntegrationBody>;

/**
 * The integration dialog (spec 3 §2): the type decides the fields — dialogflow: language,
 * projectName, the service-account JSON and a Test button; n8n and webhook: the URL; typebot: the
 * URL, slug and session settings (delay 1000 ms and expiry 1 minute by default). A stored key comes
 * back as a mask: left as is, the server keeps it.
 */
export function QueueIntegrationDialog({ record, onClose }: { record: QueueIntegration | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQueueIntegration();
  const test = useTestQueueIntegration();
  const {
    control,
    handleSubmit,
    watch,
    getValues,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createQueueIntegrationBody),
    defaultValues: {
      type: record?.type ?? 'dialogflow',
      name: record?.name ?? '',
      projectName: record?.projectName ?? '',
      jsonContent: record?.jsonContent ?? '',
      language: record?.language ?? 'pt-BR',
      urlN8N: record?.urlN8N ?? '',
      typebotSlug: record?.typebotSlug ?? '',
      typebotExpires: record?.typebotExpires ?? TYPEBOT_DEFAULTS.typebotExpires,
      typebotDelayMessage: record?.typebotDelayMessage ?? TYPEBOT_DEFAULTS.typebotDelayMessage,
      typebotKeywordFinish: record?.typebotKeywordFinish ?? '',
      typebotKeywordRestart: record?.typebotKeywordRestart ?? '',
      typebotUnknownMessage: record?.typebotUnknownMessage ?? '',
      typebotRestartMessage: record?.typebotRestartMessage ?? '',
    },
  });
  const type = watch('type');
  const field = (name: keyof FormIn) => ({ control, name, label: t(`queueIntegrations.dialog.${name}`), testId: `integration-${name}` }) as const;

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: record?.id ?? null, body: values });
      toast.success(t(record ? 'queueIntegrations.toasts.edited' : 'queueIntegrations.toasts.added'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const runTest = async () => {
    const v = getValues();
    try {
      const result = await test.mutateAsync({
        projectName: v.projectName ?? '',
        jsonContent: v.jsonContent ?? '',
        language: v.language ?? 'pt-BR',
        id: v.jsonContent === SECRET_MASK ? record?.id : undefined,
      });
      toast.success(t('queueIntegrations.toasts.tested', { reply: result.replies.join(' ') }));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="queue-integration-dialog">
      <ClosableDialogTitle closeLabel={t('queueIntegrations.dialog.close')} onClose={onClose}>
        {record ? t('queueIntegrations.dialog.editTitle') : t('queueIntegrations.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectInput
                {...field('type')}
                required
                options={QUEUE_INTEGRATION_TYPES.map((value) => ({ value, label: t(`queueIntegrations.types.${value}`) }))}
              />
              <TextInput {...field('name')} required autoFocus />
            </Stack>
            {type === 'dialogflow' && (
              <>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <SelectInput {...field('language')} required options={DIALOGFLOW_LANGUAGES.map((value) => ({ value, label: value }))} />
                  <TextInput {...field('projectName')} required />
                </Stack>
                <TextInput
                  {...field('jsonContent')}
                  required
                  multiline
                  minRows={6}
                  hint={record?.jsonContent === SECRET_MASK ? t('queueIntegrations.dialog.jsonContentKept') : undefined}
                />
              </>
            )}
            {type !== 'dialogflow' && <TextInput {...field('urlN8N')} required type="url" />}
            {type === 'typebot' && (
              <>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextInput {...field('typebotSlug')} required />
                  <NumberInput {...field('typebotExpires')} min={0} />
                  <NumberInput {...field('typebotDelayMessage')} min={0} />
                </Stack>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextInput {...field('typebotKeywordFinish')} />
                  <TextInput {...field('typebotKeywordRestart')} />
                </Stack>
                <TextInput {...field('typebotUnknownMessage')} multiline />
                <TextInput {...field('typebotRestartMessage')} multiline />
              </>
            )}
          </Stack>
        </DialogContent>
        <Stack direction="row" sx={{ alignItems: 'center', pl: 2 }}>
          {type === 'dialogflow' && (
            <Button variant="outlined" onClick={() => void runTest()} disabled={test.isPending} data-testid="integration-test">
              {t('queueIntegrations.dialog.test')}
            </Button>
          )}
          <Box sx={{ flex: 1 }}>
            <FormDialogActions
              cancelLabel={t('queueIntegrations.dialog.cancel')}
              submitLabel={record ? t('queueIntegrations.dialog.save') : t('queueIntegrations.dialog.add')}
              submitting={isSubmitting}
              onCancel={onClose}
              testId="integration-submit"
            />
          </Box>
        </Stack>
      </Box>
    </Dialog>
  );
}
