import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import { ROUTER_MINUTES, type createQueueBody } from '@balcao/contracts';
import type { z } from 'zod';
import { SelectInput } from '../../components/fields/SelectInputs';
import { SwitchInput } from '../../components/fields/SwitchInput';
import './bot-texts';

type FormIn = z.input<typeof createQueueBody>;
type FormOut = z.output<typeof createQueueBody>;

/** The queue's router rotation: on/off and its minutes (2–60). */
export function RouterFields({ control, enabled }: { control: Control<FormIn, unknown, FormOut>; enabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <SwitchInput control={control} name="ativarRoteador" label={t('queueBot.router')} testId="queue-ativarRoteador" />
      {enabled && (
        <SelectInput
          control={control}
          name="tempoRoteador"
          label={t('queueBot.routerTime')}
          options={ROUTER_MINUTES.map((m) => ({ value: m, label: t('queueBot.minutes', { count: m }) }))}
          fullWidth={false}
          sx={{ minWidth: 180 }}
          testId="queue-tempoRoteador"
        />
      )}
    </Stack>
  );
}
