import './texts';
import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { DayRange } from './dashboardQueries';

/** Start and end date with Filtrar: the range applies on Filtrar only. */
export function RangeFilter({ initial, onApply, testId }: { initial: DayRange; onApply: (range: DayRange) => void; testId: string }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(initial);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} alignItems={{ sm: 'center' }} data-testid={testId}>
      <TextField
        type="date"
        size="small"
        label={t('dashboard.filter.from')}
        value={range.from}
        onChange={(e) => setRange({ ...range, from: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testId}-from` } }}
      />
      <TextField
        type="date"
        size="small"
        label={t('dashboard.filter.to')}
        value={range.to}
        onChange={(e) => setRange({ ...range, to: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testId}-to` } }}
      />
      <Button variant="contained" onClick={() => onApply(range)} data-testid={`${testId}-apply`}>
        {t('dashboard.filter.apply')}
      </Button>
    </Stack>
  );
}
