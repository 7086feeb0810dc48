import './texts';
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../api/session';
import { Forbidden } from '../../components/Forbidden';
import { AttendantsTable } from './AttendantsTable';
import { useDashboard, useMessageCounts, type DayRange } from './dashboardQueries';
import { monthToDate } from './dates';
import { Indicators, RatingBlocks } from './Indicators';
import { RangeFilter } from './RangeFilter';
import { TicketsPerDayChart, TicketsPerUserChart } from './TicketCharts';

/** Route /: indicators, ratings, attendants and the two charts (spec 2 §2; figures: docs/dashboard.md). */
export function DashboardPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [initial] = useState(monthToDate);
  const [range, setRange] = useState<DayRange>(initial);
  const [showFilter, setShowFilter] = useState(true);
  const allowed = user.profile !== 'user' || user.showDashboard === 'enabled';
  const dashboard = useDashboard(allowed ? range : { from: '', to: '' });
  const messages = useMessageCounts(allowed ? range : { from: '', to: '' });
  if (!allowed) return <Forbidden />;
  const unset = !range.from || !range.to;
  const c = dashboard.data?.counters;

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
          {t('pages.dashboard')}
        </Typography>
        <Button onClick={() => setShowFilter((s) => !s)} aria-expanded={showFilter} data-testid="dashboard-filter-toggle">
          {showFilter ? t('dashboard.filter.hide') : t('dashboard.filter.show')}
        </Button>
      </Box>
      <Collapse in={showFilter}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <RangeFilter initial={initial} onApply={setRange} testId="dashboard-filter" />
        </Paper>
      </Collapse>
      {unset && (
        <Alert severity="warning" data-testid="dashboard-unset">
          {t('dashboard.filter.unset')}
        </Alert>
      )}
      {dashboard.isError && <Alert severity="error">{t('dashboard.error')}</Alert>}
      {dashboard.isLoading && <CircularProgress aria-label={t('dashboard.loading')} sx={{ alignSelf: 'center' }} />}
      {c && !unset && (
        <>
          <Indicators c={c} messages={messages.data} />
          <RatingBlocks c={c} />
          <Paper variant="outlined" component="section" aria-label={t('dashboard.attendants.title')} sx={{ p: 2 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('dashboard.attendants.title')}
            </Typography>
            <AttendantsTable rows={dashboard.data?.attendants ?? []} loading={dashboard.isFetching && !dashboard.data} />
          </Paper>
        </>
      )}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        <TicketsPerUserChart initial={initial} />
        <TicketsPerDayChart initial={initial} />
      </Box>
    </Box>
  );
}
