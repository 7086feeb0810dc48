import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  FORM_SUBMIT_DELAY_MS,
  GREATER_INTERVAL_OPTIONS,
  LONGER_INTERVAL_AFTER_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  campaignSettingsBody,
  campaignVariableSchema,
} from '@balcao/contracts';
import { sleep } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { TextInput, TimeInput } from '../../components/fields/TextInputs';
import { toast, toastError } from '../../components/toast';
import { useSaveCampaignSettings } from './queries';
import './texts';

const formSchema = z.object({
  messageInterval: z.coerce.number(),
  longerIntervalAfter: z.coerce.number(),
  greaterInterval: z.coerce.number(),
  startHour: z.string(),
  endHour: z.string(),
  sabado: z.boolean(),
  domingo: z.boolean(),
  variables: z.array(campaignVariableSchema),
});
type FormIn = z.input<typeof formSchema>;
type FormOut = z.output<typeof formSchema>;

/** The pacing settings (spec 3 §3, §9) and custom variables, as the Settings dialog and /campaigns-config show them. */
export function CampaignSettingsForm({ values, onSaved }: { values: Record<string, string>; onSaved?: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCampaignSettings();
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      messageInterval: Number(values.messageInterval ?? 20),
      longerIntervalAfter: Number(values.longerIntervalAfter ?? 20),
      greaterInterval: Number(values.greaterInterval ?? 60),
      startHour: values.startHour ?? '09:00',
      endHour: values.endHour ?? '18:00',
      sabado: values.sabado === 'true',
      domingo: values.domingo === 'true',
      variables: JSON.parse(values.variables ?? '[]') as FormIn['variables'],
    },
  });
  const variables = useFieldArray({ control, name: 'variables' });
  const seconds = (n: number, zero: string) => ({ value: n, label: n === 0 ? zero : t('campaigns.settingsDialog.seconds', { n }) });

  const onSubmit = async (form: FormOut) => {
    const checked = campaignSettingsBody.safeParse({ settings: form });
    if (!checked.success) {
      for (const issue of checked.error.issues) setError(issue.path.slice(1).join('.') as keyof FormIn, { message: issue.message });
      return;
    }
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync(checked.data.settings);
      toast.success(t('campaigns.settingsDialog.saved'));
      onSaved?.();
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} data-testid="campaign-settings-form">
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <SelectInput
            control={control}
            name="messageInterval"
            label={t('campaigns.settingsDialog.messageInterval')}
            options={MESSAGE_INTERVAL_OPTIONS.map((n) => seconds(n, t('campaigns.settingsDialog.noBreak')))}
            testId="campaign-settings-messageInterval"
          />
          <SelectInput
            control={control}
            name="longerIntervalAfter"
            label={t('campaigns.settingsDialog.longerIntervalAfter')}
            options={LONGER_INTERVAL_AFTER_OPTIONS.map((n) => ({ value: n, label: n === 0 ? t('campaigns.settingsDialog.undefinedAfter') : t('campaigns.settingsDialog.messages', { n }) }))}
            testId="campaign-settings-longerIntervalAfter"
          />
          <SelectInput
            control={control}
            name="greaterInterval"
            label={t('campaigns.settingsDialog.greaterInterval')}
            options={GREATER_INTERVAL_OPTIONS.map((n) => seconds(n, t('campaigns.settingsDialog.noBreak')))}
            testId="campaign-settings-greaterInterval"
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TimeInput control={control} name="startHour" label={t('campaigns.settingsDialog.startHour')} testId="campaign-settings-startHour" />
          <TimeInput control={control} name="endHour" label={t('campaigns.settingsDialog.endHour')} testId="campaign-settings-endHour" />
        </Stack>
        <Stack direction="row" spacing={2}>
          <SwitchInput control={control} name="sabado" label={t('campaigns.settingsDialog.sabado')} testId="campaign-settings-sabado" />
          <SwitchInput control={control} name="domingo" label={t('campaigns.settingsDialog.domingo')} testId="campaign-settings-domingo" />
        </Stack>
        <Typography variant="subtitle2" component="h2">
          {t('campaigns.settingsDialog.variables')}
        </Typography>
        {variables.fields.map((field, i) => (
          <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
            <TextInput control={control} name={`variables.${i}.key`} label={t('campaigns.settingsDialog.variableKey')} testId={`campaign-variable-key-${i}`} />
            <TextInput control={control} name={`variables.${i}.value`} label={t('campaigns.settingsDialog.variableValue')} testId={`campaign-variable-value-${i}`} />
            <IconButton aria-label={t('campaigns.settingsDialog.removeVariable')} onClick={() => variables.remove(i)} data-testid={`campaign-variable-remove-${i}`}>
              <DeleteOutlineIcon />
            </IconButton>
          </Stack>
        ))}
        <Box>
          <Button startIcon={<AddIcon />} onClick={() => variables.append({ key: '', value: '' })} data-testid="campaign-variable-add">
            {t('campaigns.settingsDialog.addVariable')}
          </Button>
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="campaign-settings-save">
            {t('campaigns.settingsDialog.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
