import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import CloseIcon from '@mui/icons-material/Close';
import {
  DEFAULT_QUEUE_COLOR,
  DEFAULT_WEEK_SCHEDULE,
  FORM_SUBMIT_DELAY_MS,
  createQueueBody,
  type Queue,
  type WeekSchedule,
} from '@balcao/contracts';
import { ApiError } from '../../api/http';
import { useSaveQueue } from '../../api/queues';
import { HoursEditor } from '../../components/HoursEditor';
import { fieldErrorText, sleep } from '../../components/form';
import { toast, toastError } from '../../components/toast';
import { FormDialogActions } from '../../components/FormDialogActions';

type FormIn = z.input<typeof createQueueBody>;
type FormOut = z.output<typeof createQueueBody>;

const HEX6 = /^#[0-9a-fA-F]{6}$/;

interface Props {
  queue: Queue | null;
  /** The company's scheduleType: the service-hours tab exists only for 'queue'. */
  scheduleType: string | undefined;
  onClose: () => void;
}

/** The queue dialog: queue data, and service hours when scheduleType is 'queue' (spec 3 §2). */
export function QueueDialog({ queue, scheduleType, onClose }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'data' | 'hours'>('data');
  const save = useSaveQueue();
  const hoursEnabled = scheduleType === 'queue';
  const {
    control,
    handleSubmit,
    setValue,
    setError,
    watch,
    formState: { isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createQueueBody),
    defaultValues: {
      name: queue?.name ?? '',
      color: queue?.color ?? DEFAULT_QUEUE_COLOR,
      orderQueue: queue?.orderQueue ?? '',
      greetingMessage: queue?.greetingMessage ?? '',
      outOfHoursMessage: queue?.outOfHoursMessage ?? '',
      closeTicket: queue?.closeTicket ?? false,
      schedules: queue?.schedules?.length ? queue.schedules : DEFAULT_WEEK_SCHEDULE,
    },
  });
  const schedules = watch('schedules');

  const onSubmit = async (values: FormOut) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: queue?.id ?? null, body: values });
      toast.success(t('queues.toasts.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') {
        setTab('data');
        setError('color', { type: 'server', message: t('backendErrors.ERR_QUEUE_COLOR_ALREADY_EXISTS') });
      }
      if (err instanceof ApiError && err.code === 'ERR_QUEUE_NAME_ALREADY_EXISTS') {
        setTab('data');
        setError('name', { type: 'server', message: t('backendErrors.ERR_QUEUE_NAME_ALREADY_EXISTS') });
      }
      toastError(err);
    }
  };

  const applyHours = (next: WeekSchedule) => {
    setValue('schedules', next, { shouldDirty: true });
    toast.info(t('queues.toasts.hoursHint'));
  };

  const text = (name: 'name' | 'greetingMessage' | 'outOfHoursMessage', label: string, multiline = false) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          value={field.value ?? ''}
          label={label}
          fullWidth
          size="small"
          multiline={multiline}
          minRows={multiline ? 3 : undefined}
          required={name === 'name'}
          autoFocus={name === 'name'}
          error={!!fieldState.error}
          helperText={fieldErrorText(fieldState.error)}
          slotProps={{ htmlInput: { 'data-testid': `queue-${name}` } }}
        />
      )}
    />
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={tab === 'hours' ? 'md' : 'sm'} scroll="paper" data-testid="queue-dialog">
      <DialogTitle sx={{ pr: 6 }}>
        {queue ? t('queues.dialog.editTitle') : t('queues.dialog.addTitle')}
        <IconButton aria-label={t('queues.dialog.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void handleSubmit(onSubmit, () => setTab('data'))(e)} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          {hoursEnabled && (
            <Tabs value={tab} onChange={(_e, v: 'data' | 'hours') => setTab(v)} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
              <Tab value="data" label={t('queues.dialog.tabs.data')} data-testid="queue-tab-data" />
              <Tab value="hours" label={t('queues.dialog.tabs.hours')} data-testid="queue-tab-hours" />
            </Tabs>
          )}
          <Stack spacing={2} sx={{ display: tab === 'data' ? 'flex' : 'none', pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('name', t('queues.dialog.name'))}
              <Controller
                name="color"
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('queues.dialog.color')}
                    size="small"
                    required
                    sx={{ minWidth: 170 }}
                    error={!!fieldState.error}
                    helperText={fieldErrorText(fieldState.error)}
                    slotProps={{
                      htmlInput: { 'data-testid': 'queue-color' },
                      input: {
                        startAdornment: (
                          <InputAdornment position="start">
                            <Box
                              component="input"
                              type="color"
                              aria-label={t('queues.dialog.pickColor')}
                              value={HEX6.test(field.value) ? field.value : DEFAULT_QUEUE_COLOR}
                              onChange={(e) => field.onChange(e.currentTarget.value.toUpperCase())}
                              sx={{ width: 28, height: 28, p: 0, border: 'none', bgcolor: 'transparent', cursor: 'pointer' }}
                            />
                          </InputAdornment>
                        ),
                      },
                    }}
                  />
                )}
              />
              <Controller
                name="orderQueue"
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    name={field.name}
                    ref={field.ref}
                    onBlur={field.onBlur}
                    value={field.value === null || field.value === undefined ? '' : String(field.value)}
                    onChange={(e) => field.onChange(e.target.value)}
                    type="number"
                    label={t('queues.dialog.orderQueue')}
                    size="small"
                    sx={{ minWidth: 150 }}
                    error={!!fieldState.error}
                    helperText={fieldErrorText(fieldState.error)}
                    slotProps={{ htmlInput: { min: 0, 'data-testid': 'queue-orderQueue' } }}
                  />
                )}
              />
            </Stack>
            {text('greetingMessage', t('queues.dialog.greetingMessage'), true)}
            {text('outOfHoursMessage', t('queues.dialog.outOfHoursMessage'), true)}
            <Controller
              name="closeTicket"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  label={t('queues.dialog.closeTicket')}
                  control={
                    <Switch
                      checked={field.value === true}
                      onChange={(e) => field.onChange(e.target.checked)}
                      slotProps={{ input: { 'data-testid': 'queue-closeTicket' } as object }}
                    />
                  }
                />
              )}
            />
          </Stack>
          {hoursEnabled && tab === 'hours' && <HoursEditor value={schedules} onSubmit={applyHours} submitLabel={t('queues.dialog.applyHours')} />}
        </DialogContent>
        <FormDialogActions
          cancelLabel={t('queues.dialog.cancel')}
          submitLabel={queue ? t('queues.dialog.save') : t('queues.dialog.add')}
          submitting={isSubmitting}
          onCancel={onClose}
          testId="queue-submit"
        />
      </Box>
    </Dialog>
  );
}
