import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import { FORM_SUBMIT_DELAY_MS, PROMPT_DEFAULTS, PROMPT_NEURAL_VOICES, PROMPT_TEXT_VOICE, createPromptBody, type Prompt } from '@balcao/contracts';
import { ApiError } from '../../api/http';
import { useQueues } from '../../api/queues';
import { sleep } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { NumberInput, PasswordInput, TextInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { useSavePrompt } from './queries';
import './texts';

type FormIn = z.input<typeof createPromptBody>;
type FormOut = z.output<typeof createPromptBody>;

const ownWords = (e: { message?: string }) => e.message;

/**
 * The prompt dialog: every field of the spec with its defaults. Stored keys come back
 * masked; a mask submitted unchanged keeps the stored key (docs/prompts.md).
 */
export function PromptDialog({ prompt, onClose }: { prompt: Prompt | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePrompt();
  const queues = useQueues();
  const {
    control,
    handleSubmit,
    setError,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createPromptBody),
    defaultValues: {
      name: prompt?.name ?? '',
      prompt: prompt?.prompt ?? '',
      apiKey: prompt?.apiKey ?? '',
      voice: (prompt?.voice ?? PROMPT_DEFAULTS.voice) as FormIn['voice'],
      voiceKey: prompt?.voiceKey ?? '',
      voiceRegion: prompt?.voiceRegion ?? '',
      maxTokens: prompt?.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
      temperature: prompt?.temperature ?? PROMPT_DEFAULTS.temperature,
      maxMessages: prompt?.maxMessages ?? PROMPT_DEFAULTS.maxMessages,
      queueId: prompt?.queueId ?? null,
    },
  });
  const voiced = watch('voice') !== PROMPT_TEXT_VOICE;
  const voiceOptions = [{ value: PROMPT_TEXT_VOICE, label: t('prompts.dialog.text') }, ...PROMPT_NEURAL_VOICES.map((v) => ({ value: v, label: v }))];
  const queueOptions = (queues.data ?? []).map((q) => ({ value: q.id, label: q.name }));

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: prompt?.id ?? null, body: values });
      toast.success(t('prompts.toasts.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_PROMPT_ALREADY_EXISTS') {
        setError('name', { type: 'server', message: t('backendErrors.ERR_PROMPT_ALREADY_EXISTS') });
      }
      toastError(err);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="prompt-dialog">
      <ClosableDialogTitle closeLabel={t('prompts.dialog.close')} onClose={onClose}>
        {prompt ? t('prompts.dialog.editTitle') : t('prompts.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextInput control={control} name="name" label={t('prompts.dialog.name')} required autoFocus errorText={ownWords} testId="prompt-name-input" />
            <PasswordInput control={control} name="apiKey" label={t('prompts.dialog.apiKey')} required hint={prompt ? t('prompts.dialog.apiKeyHint') : undefined} errorText={ownWords} testId="prompt-apiKey" />
            <TextInput control={control} name="prompt" label={t('prompts.dialog.prompt')} required multiline minRows={6} errorText={ownWords} testId="prompt-prompt" />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectInput control={control} name="voice" label={t('prompts.dialog.voice')} options={voiceOptions} testId="prompt-voice" />
              <PasswordInput control={control} name="voiceKey" label={t('prompts.dialog.voiceKey')} required={voiced} errorText={ownWords} testId="prompt-voiceKey" />
              <TextInput control={control} name="voiceRegion" label={t('prompts.dialog.voiceRegion')} required={voiced} errorText={ownWords} testId="prompt-voiceRegion" />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <NumberInput control={control} name="maxTokens" label={t('prompts.dialog.maxTokens')} min={1} testId="prompt-maxTokens-input" />
              <NumberInput control={control} name="temperature" label={t('prompts.dialog.temperature')} min={0} max={2} testId="prompt-temperature" />
              <NumberInput control={control} name="maxMessages" label={t('prompts.dialog.maxMessages')} min={1} testId="prompt-maxMessages" />
            </Stack>
            <SelectInput control={control} name="queueId" label={t('prompts.dialog.queue')} options={queueOptions} required errorText={ownWords} testId="prompt-queueId" />
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('prompts.dialog.cancel')}
          submitLabel={prompt ? t('prompts.dialog.save') : t('prompts.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="prompt-submit"
        />
      </Box>
    </Dialog>
  );
}
