import { useEffect } from 'react';
import { useForm, type Control, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import {
  FORM_SUBMIT_DELAY_MS,
  LANGUAGES,
  SCHEDULE_TYPES,
  companySettingsFormSchema,
  type CompanySettingKey,
  type CompanySettings,
} from '@balcao/contracts';
import { useCompanySettings, useSaveCompanySettings } from '../../api/settings';
import { sleep } from '../../components/form';
import { SelectInput } from '../../components/fields/SelectInputs';
import { TextInput } from '../../components/fields/TextInputs';
import { ListState } from '../../components/ListStates';
import { toast, toastError } from '../../components/toast';

type Item = { key: CompanySettingKey; kind: 'toggle' } | { key: CompanySettingKey; kind: 'choice'; options: readonly string[]; prefix: string } | { key: CompanySettingKey; kind: 'text' };

const toggle = (key: CompanySettingKey): Item => ({ key, kind: 'toggle' });
const text = (key: CompanySettingKey): Item => ({ key, kind: 'text' });

/** Every company setting (spec 1 §3), grouped; a message sits under the toggle that needs it. */
const GROUPS: { id: 'general' | 'attendance' | 'messages' | 'lgpd'; items: Item[] }[] = [
  {
    id: 'general',
    items: [
      toggle('userRating'),
      { key: 'scheduleType', kind: 'choice', options: SCHEDULE_TYPES, prefix: 'settings.options.scheduleTypes' },
      { key: 'chatBotType', kind: 'choice', options: ['text'], prefix: 'settings.options.chatBotTypes' },
      { key: 'botLanguage', kind: 'choice', options: LANGUAGES, prefix: 'settings.options.botLanguages' },
      toggle('campaignsEnabled'),
      toggle('showNotificationPending'),
      toggle('requiredTag'),
    ],
  },
  {
    id: 'attendance',
    items: [
      toggle('userRandom'),
      toggle('sendSignMessage'),
      toggle('acceptAudioMessageContact'),
      toggle('DirectTicketsToWallets'),
      toggle('closeTicketOnTransfer'),
      toggle('sendGreetingMessageOneQueues'),
      toggle('sendFarewellWaitingTicket'),
    ],
  },
  {
    id: 'messages',
    items: [
      toggle('acceptCallWhatsapp'),
      text('AcceptCallWhatsappMessage'),
      toggle('sendGreetingAccepted'),
      text('greetingAcceptedMessage'),
      toggle('sendQueuePosition'),
      text('sendQueuePositionMessage'),
      toggle('sendMsgTransfTicket'),
      text('transferMessage'),
    ],
  },
  {
    id: 'lgpd',
    items: [toggle('enableLGPD'), toggle('lgpdConsent'), toggle('lgpdDeleteMessage'), toggle('lgpdHideNumber'), text('lgpdMessage'), text('lgpdLink')],
  },
];

function SettingField({ item, control }: { item: Item; control: Control<CompanySettings> }) {
  const { t } = useTranslation();
  const label = t(`settings.options.fields.${item.key}`);
  if (item.kind === 'text') {
    const multiline = item.key !== 'lgpdLink';
    return <TextInput control={control} name={item.key} label={label} multiline={multiline} minRows={multiline ? 2 : undefined} testId={`setting-${item.key}`} />;
  }
  const options = item.kind === 'toggle' ? ['enabled', 'disabled'] : item.options;
  const optionLabel = (o: string) => (item.kind === 'toggle' ? t(`ui.toggle.${o}`) : t(`${item.prefix}.${o}`));
  return <SelectInput control={control} name={item.key} label={label} testId={`setting-${item.key}`} options={options.map((o) => ({ value: o, label: optionLabel(o) }))} />;
}

function OptionsForm({ companyId, settings }: { companyId: number; settings: CompanySettings }) {
  const { t } = useTranslation();
  const save = useSaveCompanySettings(companyId);
  const {
    control,
    handleSubmit,
    reset,
    formState: { isSubmitting, isDirty },
  } = useForm<CompanySettings>({
    // The value schemas take any input and answer strings: the form's values are exactly CompanySettings.
    resolver: zodResolver(companySettingsFormSchema) as Resolver<CompanySettings>,
    defaultValues: settings,
  });

  // A change saved elsewhere (another tab, another admin) shows here unless this form is being edited.
  useEffect(() => {
    if (!isDirty) reset(settings);
  }, [settings, isDirty, reset]);

  const onSubmit = async (values: CompanySettings) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      const saved = await save.mutateAsync({ before: settings, after: values });
      reset(saved);
      toast.success(t('ui.toasts.settingsSaved'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} data-testid="settings-options">
      {GROUPS.map((group) => (
        <Box key={group.id} sx={{ mb: 3 }}>
          <Typography variant="overline" color="text.secondary">
            {t(`settings.options.groups.${group.id}`)}
          </Typography>
          <Grid container spacing={2} sx={{ mt: 0.5 }}>
            {group.items.map((item) => (
              <Grid key={item.key} size={item.kind === 'text' ? { xs: 12, md: 8 } : { xs: 12, sm: 6, md: 4 }}>
                <SettingField item={item} control={control} />
              </Grid>
            ))}
          </Grid>
        </Box>
      ))}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="settings-options-submit"
        >
          {t('settings.options.save')}
        </Button>
      </Box>
    </Box>
  );
}

/** Settings → options: every company setting with the message rules of spec 1 §5. */
export function OptionsTab({ companyId }: { companyId: number }) {
  const settings = useCompanySettings(companyId);
  if (!settings.data) {
    return <ListState loading={settings.isPending} error={settings.isError} empty={false} onRetry={() => void settings.refetch()} />;
  }
  return <OptionsForm companyId={companyId} settings={settings.data} />;
}
