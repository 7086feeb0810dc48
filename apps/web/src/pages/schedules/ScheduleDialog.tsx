import { useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  FORM_SUBMIT_DELAY_MS,
  SCHEDULE_ATTACHMENT_EXTENSIONS,
  SCHEDULE_DAY_RULES,
  SCHEDULE_DEFAULT_LEAD_MS,
  SCHEDULE_DEFAULTS,
  SCHEDULE_INTERVALS,
  SCHEDULE_MSG,
  SEARCH_DEBOUNCE_MS,
  createScheduleBody,
  type Schedule,
} from '@balcao/contracts';
import { useSaveSchedule, useContactChoices, useUserChoices, type ContactChoice } from '../../api/schedules';
import { useQueues } from '../../api/queues';
import { useConnectionOptions } from '../../api/users';
import { sleep, useDebouncedValue } from '../../components/form';
import { FileInput } from '../../components/fields/FileInput';
import { SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import { NumberInput, TextInput } from '../../components/fields/TextInputs';
import { FormDialogActions } from '../../components/FormDialogActions';
import { toast, toastError } from '../../components/toast';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

const formSchema = createScheduleBody.extend({ media: z.instanceof(File).nullable().optional() });
type FormIn = z.input<typeof formSchema>;
type FormOut = z.output<typeof formSchema>;

const two = (n: number) => String(n).padStart(2, '0');
/** A date as the datetime-local input shows it, in the browser's time zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

const ACCEPT = SCHEDULE_ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(',');

interface Props {
  /** The schedule to edit, or null for a new one. */
  schedule: Schedule | null;
  /** A new schedule's contact (`?contactId=`, the conversation's "schedule message"). */
  contact?: ContactChoice | null;
  onClose: () => void;
}

/** The schedule dialog (spec 2 §2, §4, §5): tabs Message and Settings with every field of the Schedule. */
export function ScheduleDialog({ schedule, contact, onClose }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'message' | 'settings'>('message');
  const [keptMedia, setKeptMedia] = useState(schedule?.mediaName ?? null);
  const save = useSaveSchedule();
  const connections = useConnectionOptions(true);
  const queues = useQueues();
  const users = useUserChoices(true);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      body: schedule?.body ?? '',
      contactId: schedule?.contactId ?? contact?.id ?? ('' as unknown as number),
      sendAt: toLocalInput(schedule ? new Date(schedule.sendAt) : new Date(Date.now() + SCHEDULE_DEFAULT_LEAD_MS)),
      whatsappId: schedule?.whatsappId ?? null,
      ticketUserId: schedule?.ticketUserId ?? null,
      queueId: schedule?.queueId ?? null,
      openTicket: schedule?.openTicket ?? SCHEDULE_DEFAULTS.openTicket,
      statusTicket: schedule?.statusTicket ?? SCHEDULE_DEFAULTS.statusTicket,
      intervalo: schedule?.intervalo ?? SCHEDULE_DEFAULTS.intervalo,
      valorIntervalo: schedule?.valorIntervalo ?? SCHEDULE_DEFAULTS.valorIntervalo,
      enviarQuantasVezes: schedule?.enviarQuantasVezes ?? SCHEDULE_DEFAULTS.enviarQuantasVezes,
      tipoDias: schedule?.tipoDias ?? SCHEDULE_DEFAULTS.tipoDias,
      assinar: schedule?.assinar ?? SCHEDULE_DEFAULTS.assinar,
      media: null,
    },
  });

  const onSubmit = async ({ media, ...body }: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      const removed = schedule?.mediaName && !keptMedia && !media;
      await save.mutateAsync({ id: schedule?.id ?? null, body, media: media ?? (removed ? null : undefined) });
      if (removed) toast.success(t('schedules.toasts.mediaDeleted'));
      toast.success(t('schedules.toasts.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const named = (list: { id: number; name: string }[] | undefined) => (list ?? []).map((r) => ({ value: r.id, label: r.name }));
  const show = (which: typeof tab) => ({ display: tab === which ? 'flex' : 'none', pt: 1 });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="schedule-dialog" aria-labelledby="schedule-dialog-title">
      <ClosableDialogTitle id="schedule-dialog-title" closeLabel={t('schedules.dialog.close')} onClose={onClose}>
        {schedule ? t('schedules.dialog.editTitle') : t('schedules.dialog.addTitle')}
      </ClosableDialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit, () => setTab('message'))(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Tabs value={tab} onChange={(_e, v: typeof tab) => setTab(v)} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
            <Tab value="message" label={t('schedules.dialog.tabs.message')} data-testid="schedule-tab-message" />
            <Tab value="settings" label={t('schedules.dialog.tabs.settings')} data-testid="schedule-tab-settings" />
          </Tabs>
          {schedule?.status === 'ERRO' && schedule.reason && (
            <Alert severity="error" sx={{ mb: 2 }} data-testid="schedule-reason">
              {t('schedules.dialog.reason', { reason: schedule.reason })}
            </Alert>
          )}
          <Stack spacing={2} sx={show('message')}>
            <ContactInput control={control} initial={schedule?.contact ?? contact ?? null} />
            <TextInput
              control={control}
              name="body"
              label={t('schedules.dialog.body')}
              multiline
              required
              errorText={(e) => (e.type === 'too_small' ? SCHEDULE_MSG.tooShort : SCHEDULE_MSG.required)}
              testId="schedule-body"
            />
            <TextInput
              control={control}
              name="sendAt"
              label={t('schedules.dialog.sendAt')}
              type="datetime-local"
              inputProps={{ step: 1 }}
              required
              errorText={() => SCHEDULE_MSG.required}
              testId="schedule-sendAt"
            />
            <FileInput control={control} name="media" label={t('schedules.dialog.attach')} accept={ACCEPT} testId="schedule-media" />
            {keptMedia && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="body2">{t('schedules.dialog.attachment', { name: keptMedia })}</Typography>
                <Button size="small" color="error" onClick={() => setKeptMedia(null)} data-testid="schedule-media-remove">
                  {t('schedules.dialog.removeAttachment')}
                </Button>
              </Stack>
            )}
          </Stack>
          <Stack spacing={2} sx={show('settings')}>
            <SelectInput
              control={control}
              name="whatsappId"
              label={t('schedules.dialog.whatsappId')}
              noneLabel={t('schedules.dialog.defaultConnection')}
              options={named(connections.data)}
              testId="schedule-whatsappId"
            />
            <SwitchInput control={control} name="openTicket" label={t('schedules.dialog.openTicket')} values={['enabled', 'disabled']} testId="schedule-openTicket" />
            <SelectInput
              control={control}
              name="statusTicket"
              label={t('schedules.dialog.statusTicket')}
              options={[
                { value: 'closed', label: t('schedules.dialog.statusClosed') },
                { value: 'open', label: t('schedules.dialog.statusOpen') },
              ]}
              testId="schedule-statusTicket"
            />
            <SelectInput
              control={control}
              name="ticketUserId"
              label={t('schedules.dialog.ticketUserId')}
              noneLabel={t('schedules.dialog.none')}
              options={named(users.data)}
              testId="schedule-ticketUserId"
            />
            <SelectInput control={control} name="queueId" label={t('schedules.dialog.queueId')} noneLabel={t('schedules.dialog.none')} options={named(queues.data)} testId="schedule-queueId" />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectInput
                control={control}
                name="intervalo"
                label={t('schedules.dialog.intervalo')}
                options={Object.entries(SCHEDULE_INTERVALS).map(([value, unit]) => ({ value: Number(value), label: t(`schedules.dialog.intervals.${unit}`) }))}
                testId="schedule-intervalo"
              />
              <NumberInput control={control} name="valorIntervalo" label={t('schedules.dialog.valorIntervalo')} min={0} testId="schedule-valorIntervalo" />
              <NumberInput control={control} name="enviarQuantasVezes" label={t('schedules.dialog.enviarQuantasVezes')} min={1} testId="schedule-enviarQuantasVezes" />
            </Stack>
            <SelectInput
              control={control}
              name="tipoDias"
              label={t('schedules.dialog.tipoDias')}
              options={SCHEDULE_DAY_RULES.map((value) => ({ value, label: t(`schedules.dialog.dayRules.${value}`) }))}
              testId="schedule-tipoDias"
            />
            <SwitchInput control={control} name="assinar" label={t('schedules.dialog.assinar')} testId="schedule-assinar" />
          </Stack>
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('schedules.dialog.cancel')}
          submitLabel={schedule ? t('schedules.dialog.save') : t('schedules.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="schedule-submit"
        />
      </Box>
    </Dialog>
  );
}

/** The contact picker: the company's contacts by name (`GET /contacts/list`), the form holding the id. */
function ContactInput({ control, initial }: { control: Control<FormIn, unknown, FormOut>; initial: ContactChoice | null }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'contactId' });
  const [chosen, setChosen] = useState<ContactChoice | null>(initial);
  const [input, setInput] = useState(initial?.name ?? '');
  const term = useDebouncedValue(chosen && input === chosen.name ? '' : input.trim(), SEARCH_DEBOUNCE_MS);
  const choices = useContactChoices(term, true);
  return (
    <Autocomplete
      options={choices.data ?? []}
      value={chosen}
      onChange={(_e, value) => {
        setChosen(value ? { id: value.id, name: value.name } : null);
        field.onChange(value?.id ?? '');
      }}
      inputValue={input}
      onInputChange={(_e, value) => setInput(value)}
      getOptionKey={(c) => c.id}
      getOptionLabel={(c) => c.name}
      // Namesakes are told apart by their number.
      renderOption={(props, c) => (
        <li {...props} key={c.id}>
          {c.name}
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {c.number}
          </Typography>
        </li>
      )}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      noOptionsText={t('schedules.dialog.noContacts')}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={field.ref}
          required
          size="small"
          label={t('schedules.dialog.contact')}
          error={!!fieldState.error}
          helperText={fieldState.error ? SCHEDULE_MSG.required : undefined}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'schedule-contact' } }}
        />
      )}
    />
  );
}
