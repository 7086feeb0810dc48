import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HOURS_FORM_SUBMIT_DELAY_MS, weekSchedule, type WeekSchedule } from '@balcao/contracts';
import { completeWeek } from './hours';
import { sleep } from './form';

const hoursForm = z.object({ schedules: weekSchedule });
type HoursForm = z.infer<typeof hoursForm>;
type PeriodField = 'startTimeA' | 'endTimeA' | 'startTimeB' | 'endTimeB';

interface Props {
  value: WeekSchedule | null | undefined;
  onSubmit: (schedules: WeekSchedule) => Promise<void> | void;
  submitLabel?: string;
  disabled?: boolean;
}

/**
 * The opening-hours editor of the company, the queues and the connections:
 * seven days × two periods in HH:MM; submit is delayed 500 ms (spec 1 §5).
 */
export function HoursEditor({ value, onSubmit, submitLabel, disabled }: Props) {
  const { t } = useTranslation();
  // By content, not identity: a parent that passes a fresh array on each render does not wipe the edits.
  const valueKey = JSON.stringify(value ?? null);
  const initial = useMemo(() => completeWeek(JSON.parse(valueKey) as WeekSchedule | null), [valueKey]);
  const {
    control,
    handleSubmit,
    reset,
    formState: { isSubmitting },
  } = useForm<HoursForm>({ resolver: zodResolver(hoursForm), defaultValues: { schedules: initial } });

  useEffect(() => reset({ schedules: initial }), [initial, reset]);

  const submit = async (values: HoursForm) => {
    await sleep(HOURS_FORM_SUBMIT_DELAY_MS);
    await onSubmit(values.schedules);
  };

  const timeField = (index: number, field: PeriodField, label: string) => (
    <Controller
      key={field}
      name={`schedules.${index}.${field}`}
      control={control}
      render={({ field: f, fieldState }) => (
        <TextField
          {...f}
          type="time"
          size="small"
          label={label}
          disabled={disabled}
          error={!!fieldState.error}
          helperText={fieldState.error ? t('ui.hours.invalid') : undefined}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { step: 60, 'data-testid': `hours-${initial[index]?.weekdayEn}-${field}` },
          }}
          sx={{ width: 124 }}
        />
      )}
    />
  );

  return (
    // Not a <form>: the editor also sits inside other dialogs' forms (queue, connection).
    <Box data-testid="hours-editor">
      <Stack spacing={1.5}>
        {initial.map((day, index) => (
          <Stack
            key={day.weekdayEn}
            direction={{ xs: 'column', md: 'row' }}
            spacing={1.5}
            sx={{ alignItems: { md: 'center' }, py: 0.5, borderBottom: 1, borderColor: 'divider' }}
            data-testid={`hours-day-${day.weekdayEn}`}
          >
            <Typography sx={{ width: 130, flexShrink: 0, fontWeight: 500 }}>{t(`ui.hours.days.${day.weekdayEn}`)}</Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="caption" color="text.secondary" sx={{ width: 100 }}>
                {t('ui.hours.morning')}
              </Typography>
              {timeField(index, 'startTimeA', t('ui.hours.start'))}
              {timeField(index, 'endTimeA', t('ui.hours.end'))}
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="caption" color="text.secondary" sx={{ width: 100 }}>
                {t('ui.hours.afternoon')}
              </Typography>
              {timeField(index, 'startTimeB', t('ui.hours.start'))}
              {timeField(index, 'endTimeB', t('ui.hours.end'))}
            </Stack>
          </Stack>
        ))}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            type="button"
            onClick={() => void handleSubmit(submit)()}
            variant="contained"
            disabled={disabled || isSubmitting}
            startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            data-testid="hours-submit"
          >
            {submitLabel ?? t('ui.hours.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
