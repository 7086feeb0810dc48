import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm, type FieldError, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  FORM_SUBMIT_DELAY_MS,
  whatsappFormSchema,
  type Channel,
  type FieldIssue,
  type WeekSchedule,
  type WhatsappFormValues,
} from '@balcao/contracts';
import { ApiError } from '../../api/http';
import { useQueues } from '../../api/queues';
import { queueIntegrationPages } from '../../api/queueIntegrations';
import { NoQueueAlert } from './NoQueueWarning';
import { useUser } from '../../api/session';
import {
  applyWhatsappEvent,
  patchCachedConnection,
  usePromptsForConnections,
  whatsappApi,
  whatsappListKey,
  whatsappOneKey,
  type Connection,
} from '../../api/whatsapp';
import { sleep } from '../../components/form';
import { MultiSelectInput, SelectInput } from '../../components/fields/SelectInputs';
import { RecordSelectInput } from '../../components/fields/RecordSelect';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { TextInput } from '../../components/fields/TextInputs';
import { HoursEditor } from '../../components/HoursEditor';
import { toast, toastError } from '../../components/toast';
import {
  firstTabWithError,
  formDefaults,
  formErrorKey,
  generateToken,
  greetingIssue,
  importWindow,
  isGreetingMedia,
  resetsSession,
  tabOfField,
  vacationMin,
  type ConnectionFormState,
  type ConnectionTab,
} from './connectionForm';

type StringField = { [K in keyof ConnectionFormState]: ConnectionFormState[K] extends string ? K : never }[keyof ConnectionFormState];
type SelectField = 'sendIdQueue' | 'whenExpiresTicket' | 'queueIdImportMessages' | 'promptId';
type BoolField = { [K in keyof ConnectionFormState]: ConnectionFormState[K] extends boolean ? K : never }[keyof ConnectionFormState];

const contractResolver = zodResolver(whatsappFormSchema);

/**
 * The contract's schema (the server validates with the same one), plus the
 * queue-greeting rule the server answers with ERR_WAPP_GREETING_REQUIRED.
 */
const connectionResolver: Resolver<ConnectionFormState, unknown, WhatsappFormValues> = async (values, context, options) => {
  const result = await (contractResolver as unknown as Resolver<ConnectionFormState, unknown, WhatsappFormValues>)(values, context, options);
  const greeting = greetingIssue(values);
  if (!greeting) return result;
  const errors: FieldErrors<ConnectionFormState> = { ...result.errors, greetingMessage: { type: 'custom', message: greeting } };
  return { values: {}, errors };
};

interface Props {
  /** Null: a new connection of `channel`. */
  connectionId: number | null;
  channel?: Channel;
  onClose: () => void;
}

/** The connection dialog: loads the connection (with its token) before the form appears. */
export function ConnectionDialog({ connectionId, channel = 'whatsapp', onClose }: Props) {
  const { t } = useTranslation();
  const one = useQuery({
    queryKey: whatsappOneKey(connectionId ?? 0),
    queryFn: () => whatsappApi.one(connectionId!),
    enabled: connectionId !== null,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const title = connectionId === null ? t('whatsappModal.title.add') : t('whatsappModal.title.edit');
  let body: ReactNode;
  if (connectionId !== null && one.isPending) {
    body = (
      <DialogContent dividers sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress />
      </DialogContent>
    );
  } else if (connectionId !== null && one.isError) {
    body = (
      <DialogContent dividers>
        <Alert severity="error">{t('whatsappModal.validation.loadError')}</Alert>
      </DialogContent>
    );
  } else {
    body = <ConnectionForm connection={one.data ?? null} channel={channel} onClose={onClose} />;
  }
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth scroll="paper" data-testid="connection-dialog">
      <DialogTitle>{title}</DialogTitle>
      {body}
      {connectionId !== null && !one.isSuccess && (
        <DialogActions>
          <Button onClick={onClose}>{t('whatsappModal.buttons.cancel')}</Button>
        </DialogActions>
      )}
    </Dialog>
  );
}

function ConnectionForm({ connection, channel, onClose }: { connection: Connection | null; channel: Channel; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const queryClient = useQueryClient();
  const withSchedules = user.company.companieSettings?.scheduleType === 'connection';
  const defaults = useMemo(() => formDefaults(connection, { channel, withSchedules }), [connection, channel, withSchedules]);
  const {
    control,
    handleSubmit,
    setValue,
    getValues,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ConnectionFormState, unknown, WhatsappFormValues>({ resolver: connectionResolver, defaultValues: defaults, mode: 'onSubmit' });
  const [tab, setTab] = useState<ConnectionTab>('general');
  const [pendingMedia, setPendingMedia] = useState<File | null>(null);
  const [mediaError, setMediaError] = useState(false);
  const [attachment, setAttachment] = useState(connection?.greetingMediaAttachment ?? null);
  const fileInput = useRef<HTMLInputElement>(null);

  const queues = useQueues();
  const prompts = usePromptsForConnections(true);
  const integrationsAllowed = user.company.plan?.useIntegrations === true;
  const queueList = queues.data ?? [];

  const isWhatsapp = (connection?.channel ?? channel) === 'whatsapp';
  const enableImport = watch('enableImportMessage');
  const willReset = connection !== null && resetsSession(connection.status, enableImport);
  const schedules = watch('schedules');
  const queueCount = watch('queueIds').length;
  const window2y = useMemo(() => importWindow(), []);
  const minVacation = useMemo(() => vacationMin(), []);

  const errorText = (error: FieldError | undefined): string | undefined => {
    const mapped = formErrorKey(error?.message);
    if (!mapped) return error ? t('whatsappModal.validation.required') : undefined;
    return 'key' in mapped ? t(mapped.key) : mapped.text;
  };

  const tabsWithErrors = new Set(Object.keys(errors).map(tabOfField));

  const text = (name: StringField, label: string, opts: { multiline?: boolean; type?: 'number' | 'date'; helper?: string; min?: string; max?: string } = {}) => (
    <TextInput
      control={control}
      name={name}
      label={label}
      type={opts.type}
      multiline={opts.multiline}
      hint={opts.helper}
      errorText={errorText}
      inputProps={{ ...(opts.type === 'number' ? { min: 0, step: 1 } : {}), ...(opts.min ? { min: opts.min } : {}), ...(opts.max ? { max: opts.max } : {}) }}
      testId={`cf-${name}`}
    />
  );

  const toggle = (name: BoolField, label: string) => <SwitchInput control={control} name={name} label={label} testId={`cf-${name}`} />;

  const select = (name: SelectField, label: string, options: { id: number | string; name: string }[], none = true) => (
    <SelectInput
      control={control}
      name={name}
      label={label}
      options={options.map((o) => ({ value: o.id, label: o.name }))}
      noneLabel={none ? t('whatsappModal.form.none') : undefined}
      errorText={errorText}
      testId={`cf-${name}`}
      optionTestId={(id) => `cf-${name}-option-${id}`}
    />
  );

  const copyToken = async (token: string) => {
    try {
      await navigator.clipboard.writeText(token);
      toast.success(t('whatsappModal.form.copied'));
    } catch {
      toast.info(token);
    }
  };

  const pickMedia = (file: File | undefined) => {
    if (!file) return;
    if (!isGreetingMedia(file)) {
      setMediaError(true);
      setPendingMedia(null);
      return;
    }
    setMediaError(false);
    setPendingMedia(file);
  };

  const removeMedia = async () => {
    if (pendingMedia) {
      setPendingMedia(null);
      return;
    }
    if (!connection) return;
    try {
      await whatsappApi.removeMedia(connection.id);
      setAttachment(null);
    } catch (err) {
      toastError(err);
    }
  };

  const onValid = async (values: WhatsappFormValues) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      let saved: Connection;
      const reset = connection !== null && resetsSession(connection.status, values.enableImportMessage);
      if (connection) {
        if (reset) {
          // Spec 1 §4: the session goes first, so the next pairing brings the history.
          await whatsappApi.disconnect(connection.id);
          patchCachedConnection(queryClient, connection.id, { status: 'qrcode', qrcode: '' });
        }
        saved = await whatsappApi.update(connection.id, values);
      } else {
        saved = await whatsappApi.create(values);
      }
      if (pendingMedia) saved = await whatsappApi.uploadMedia(saved.id, pendingMedia);
      queryClient.setQueryData<Connection[]>(whatsappListKey, (list) => applyWhatsappEvent(list, { action: 'update', whatsapp: saved }));
      // Taking the default unsets it elsewhere: the list reloads to show it.
      if (values.isDefault !== (connection?.isDefault ?? false)) void queryClient.invalidateQueries({ queryKey: whatsappListKey });
      if (reset) {
        patchCachedConnection(queryClient, saved.id, { status: 'qrcode', qrcode: '' });
        await whatsappApi.startSession(saved.id).catch(() => undefined);
      }
      toast.success(t('whatsappModal.success'));
      if (reset) toast.warning(t('whatsappModal.import.sessionReset'));
      onClose();
    } catch (err) {
      const issues = err instanceof ApiError ? (err.data as { issues?: FieldIssue[] } | null)?.issues : undefined;
      if (issues?.length) {
        for (const issue of issues) {
          const field = issue.path.split('.')[0] as keyof ConnectionFormState;
          if (field in defaults) setError(field, { type: 'server', message: issue.message });
        }
        const first = firstTabWithError(issues.map((i) => i.path.split('.')[0] ?? ''));
        if (first) setTab(first);
      }
      toastError(err);
    }
  };

  const onInvalid = (errs: FieldErrors<ConnectionFormState>) => {
    const first = firstTabWithError(Object.keys(errs));
    if (first) setTab(first);
  };

  const tabs: ConnectionTab[] = ['general', 'integrations', 'messages', 'chatbot', 'assessments', ...(withSchedules ? (['schedules'] as const) : [])];
  const minutes = (name: StringField, label: string) => text(name, label, { type: 'number', helper: t('whatsappModal.chatbot.zeroDisables') });
  const section = (label: string) => (
    <Divider textAlign="left" sx={{ pt: 1 }}>
      <Typography variant="overline" color="text.secondary">
        {label}
      </Typography>
    </Divider>
  );

  return (
    <>
      <Tabs
        value={tab}
        onChange={(_e, v: ConnectionTab) => setTab(v)}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}
      >
        {tabs.map((k) => (
          <Tab
            key={k}
            value={k}
            label={t(`whatsappModal.tabs.${k}`)}
            data-testid={`connection-tab-${k}`}
            data-error={tabsWithErrors.has(k) ? 'true' : undefined}
            sx={tabsWithErrors.has(k) ? { color: 'error.main' } : undefined}
          />
        ))}
      </Tabs>
      <DialogContent dividers sx={{ minHeight: 420 }}>
        <Box role="tabpanel" data-testid={`connection-panel-${tab}`}>
          {tab === 'general' && (
            <Stack spacing={2}>
              {text('name', t('whatsappModal.form.name'))}
              <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2 }}>
                {toggle('isDefault', t('whatsappModal.form.default'))}
                {isWhatsapp && toggle('allowGroup', t('whatsappModal.form.allowGroup'))}
                {isWhatsapp && (
                  <SwitchInput
                    control={control}
                    name="groupAsTicket"
                    label={t('whatsappModal.form.groupAsTicket')}
                    values={['enabled', 'disabled']}
                    testId="cf-groupAsTicket"
                  />
                )}
              </Stack>
              <MultiSelectInput
                control={control}
                name="queueIds"
                label={t('whatsappModal.form.queues')}
                options={queueList.map((q) => ({ value: q.id, label: q.name }))}
                renderSelected={(ids) => (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {ids.map((id) => {
                      const q = queueList.find((x) => x.id === id);
                      return <Chip key={String(id)} size="small" label={q?.name ?? String(id)} sx={{ bgcolor: q?.color, color: '#fff' }} />;
                    })}
                  </Box>
                )}
                errorText={errorText}
                testId="cf-queueIds"
                optionTestId={(id) => `cf-queueIds-option-${id}`}
              />
              {queueCount === 0 && <NoQueueAlert />}
              <TextInput
                control={control}
                name="token"
                label={t('whatsappModal.form.token')}
                hint={t('whatsappModal.form.tokenHelp')}
                errorText={errorText}
                inputProps={{ readOnly: true, style: { fontFamily: 'monospace' } }}
                testId="cf-token"
                endAdornment={
                  <InputAdornment position="end">
                    <Tooltip title={t('whatsappModal.form.copy')}>
                      <IconButton size="small" onClick={() => void copyToken(getValues('token'))} data-testid="cf-token-copy">
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('whatsappModal.form.regenerate')}>
                      <IconButton
                        size="small"
                        onClick={() => setValue('token', generateToken(), { shouldDirty: true, shouldValidate: true })}
                        data-testid="cf-token-regenerate"
                      >
                        <AutorenewIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                }
              />
              <Box>
                <Typography variant="subtitle2">{t('whatsappModal.form.greetingMedia')}</Typography>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <input
                    ref={fileInput}
                    type="file"
                    accept="image/*,video/*"
                    hidden
                    data-testid="cf-media-input"
                    onChange={(e) => {
                      pickMedia(e.target.files?.[0]);
                      e.target.value = '';
                    }}
                  />
                  <Button size="small" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
                    {t('whatsappModal.form.attach')}
                  </Button>
                  <Typography variant="body2" color="text.secondary" data-testid="cf-media-name">
                    {pendingMedia
                      ? t('whatsappModal.form.pendingMedia', { name: pendingMedia.name })
                      : (attachment ?? t('whatsappModal.form.noMedia'))}
                  </Typography>
                  {(pendingMedia || attachment) && (
                    <Tooltip title={t('whatsappModal.form.removeMedia')}>
                      <IconButton size="small" onClick={() => void removeMedia()} data-testid="cf-media-remove">
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </Stack>
                {mediaError && (
                  <Typography variant="caption" color="error" data-testid="cf-media-error">
                    {t('whatsappModal.validation.mediaType')}
                  </Typography>
                )}
              </Box>
              {isWhatsapp && (
                <>
                  {section(t('whatsappModal.import.title'))}
                  <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2 }}>
                    {toggle('enableImportMessage', t('whatsappModal.import.enableImportMessage'))}
                    {enableImport && toggle('importOldMessagesGroups', t('whatsappModal.import.importOldMessagesGroups'))}
                    {enableImport && toggle('closedTicketsPostImported', t('whatsappModal.import.closedTicketsPostImported'))}
                  </Stack>
                  {enableImport && (
                    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                      {text('importOldMessages', t('whatsappModal.import.importOldMessages'), { type: 'date', min: window2y.min, max: window2y.max })}
                      {text('importRecentMessages', t('whatsappModal.import.importRecentMessages'), { type: 'date', min: window2y.min, max: window2y.max })}
                      {select('queueIdImportMessages', t('whatsappModal.import.queueIdImportMessages'), queueList)}
                    </Stack>
                  )}
                  {willReset && (
                    <Alert severity="warning" data-testid="cf-session-reset-warning">
                      {t('whatsappModal.import.sessionResetWarning')}
                    </Alert>
                  )}
                </>
              )}
            </Stack>
          )}
          {tab === 'integrations' && (
            <Stack spacing={2}>
              <Typography variant="body2" color="text.secondary">
                {t('whatsappModal.integrations.hint')}
              </Typography>
              {integrationsAllowed && (
                <RecordSelectInput
                  control={control}
                  name="integrationId"
                  source={queueIntegrationPages}
                  label={t('whatsappModal.integrations.integrationId')}
                  placeholder={t('whatsappModal.form.none')}
                  errorText={errorText}
                  testId="cf-integrationId"
                />
              )}
              {select('promptId', t('whatsappModal.integrations.promptId'), prompts.data ?? [])}
            </Stack>
          )}
          {tab === 'messages' && (
            <Stack spacing={2}>
              {text('greetingMessage', t('whatsappModal.messages.greetingMessage'), { multiline: true })}
              {text('complationMessage', t('whatsappModal.messages.complationMessage'), { multiline: true })}
              {text('outOfHoursMessage', t('whatsappModal.messages.outOfHoursMessage'), { multiline: true })}
              {section(t('whatsappModal.messages.vacationTitle'))}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {text('collectiveVacationStart', t('whatsappModal.messages.collectiveVacationStart'), { type: 'date', min: minVacation })}
                {text('collectiveVacationEnd', t('whatsappModal.messages.collectiveVacationEnd'), { type: 'date', min: minVacation })}
              </Stack>
              {text('collectiveVacationMessage', t('whatsappModal.messages.collectiveVacationMessage'), { multiline: true })}
            </Stack>
          )}
          {tab === 'chatbot' && (
            <Stack spacing={2}>
              {section(t('whatsappModal.chatbot.redirectTitle'))}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {minutes('timeSendQueue', t('whatsappModal.chatbot.timeSendQueue'))}
                {select('sendIdQueue', t('whatsappModal.chatbot.sendIdQueue'), queueList)}
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {text('maxUseBotQueues', t('whatsappModal.chatbot.maxUseBotQueues'), { type: 'number' })}
                {minutes('timeUseBotQueues', t('whatsappModal.chatbot.timeUseBotQueues'))}
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {minutes('expiresTicket', t('whatsappModal.chatbot.expiresTicket'))}
                {select(
                  'whenExpiresTicket',
                  t('whatsappModal.chatbot.whenExpiresTicket'),
                  [
                    { id: '0', name: t('whatsappModal.chatbot.whenExpires0') },
                    { id: '1', name: t('whatsappModal.chatbot.whenExpires1') },
                  ],
                  false,
                )}
              </Stack>
              {text('expiresInactiveMessage', t('whatsappModal.chatbot.expiresInactiveMessage'), { multiline: true })}
              {minutes('timeInactiveMessage', t('whatsappModal.chatbot.timeInactiveMessage'))}
              {text('inactiveMessage', t('whatsappModal.chatbot.inactiveMessage'), { multiline: true })}
              {minutes('timeCreateNewTicket', t('whatsappModal.chatbot.timeCreateNewTicket'))}
            </Stack>
          )}
          {tab === 'assessments' && (
            <Stack spacing={2}>
              {text('ratingMessage', t('whatsappModal.assessments.ratingMessage'), {
                multiline: true,
                helper: t('whatsappModal.assessments.ratingHelp'),
              })}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {minutes('expiresTicketNPS', t('whatsappModal.assessments.expiresTicketNPS'))}
                {text('maxUseBotQueuesNPS', t('whatsappModal.assessments.maxUseBotQueuesNPS'), { type: 'number' })}
              </Stack>
            </Stack>
          )}
          {tab === 'schedules' && withSchedules && (
            <Stack spacing={2}>
              <Typography variant="body2" color="text.secondary">
                {t('whatsappModal.schedules.hint')}
              </Typography>
              <HoursEditor
                value={schedules as WeekSchedule}
                onSubmit={(next) => {
                  setValue('schedules', next, { shouldDirty: true });
                  toast.info(t('whatsappModal.schedules.saveHint'));
                }}
              />
            </Stack>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isSubmitting} data-testid="connection-cancel">
          {t('whatsappModal.buttons.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={isSubmitting}
          onClick={() => void handleSubmit(onValid, onInvalid)()}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="connection-save"
        >
          {connection ? t('whatsappModal.buttons.okEdit') : t('whatsappModal.buttons.okAdd')}
        </Button>
      </DialogActions>
    </>
  );
}
