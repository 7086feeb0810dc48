import './texts';
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BarChart } from './BarChart';
import { useTicketsPerDay, useTicketsPerUser, type DayRange } from './dashboardQueries';
import { RangeFilter } from './RangeFilter';

function ChartCard({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }} component="section" aria-label={title} data-testid={testId}>
      <Typography variant="h6" component="h2" data-testid={`${testId}-title`}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Tickets per attendant, with its own dates (spec 2 §2). */
export function TicketsPerUserChart({ initial }: { initial: DayRange }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(initial);
  const query = useTicketsPerUser(range);
  const data = query.data?.data ?? [];
  const title = t('dashboard.charts.perUser');
  return (
    <ChartCard title={title} testId="chart-users">
      <RangeFilter initial={initial} onApply={setRange} testId="chart-users-filter" />
      {query.isError && <Alert severity="error">{t('dashboard.charts.error')}</Alert>}
      <BarChart testId="chart-users-canvas" label={title} labels={data.map((d) => d.nome)} values={data.map((d) => d.quantidade)} />
    </ChartCard>
  );
}

/** Tickets per day, or per hour for a single day ('Das H:00 às H:59'), the total in the title. */
export function TicketsPerDayChart({ initial }: { initial: DayRange }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(initial);
  const query = useTicketsPerDay(range);
  const data = query.data?.data ?? [];
  const title = t('dashboard.charts.perDay', { total: query.data?.count ?? 0 });
  const labels = data.map((d) => (d.horario !== undefined ? t('dashboard.charts.hour', { h: d.horario }) : (d.data ?? '').split('-').reverse().join('/')));
  return (
    <ChartCard title={title} testId="chart-days">
      <RangeFilter initial={initial} onApply={setRange} testId="chart-days-filter" />
      {query.isError && <Alert severity="error">{t('dashboard.charts.error')}</Alert>}
      <BarChart testId="chart-days-canvas" label={title} labels={labels} values={data.map((d) => d.total)} />
    </ChartCard>
  );
}
