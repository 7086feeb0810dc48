import { useEffect, useRef } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { REPORT_REFRESH_AFTER_FINISH_MS } from '@balcao/contracts';
import { ListState } from '../../components/ListStates';
import { PageShell } from '../../components/PageShell';
import { dateTime } from './format';
import { useCampaignReport } from './queries';
import './texts';

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Card variant="outlined" sx={{ flex: '1 1 200px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h6" component="p" data-testid={testId}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/**
 * /campaign/{id}/report (spec 3 §2): status with delivered of valid contacts, the progress
 * bar, the cards (confirmations only with confirmation on), Back; reloads 5 s after a live FINALIZADA.
 */
export function CampaignReportPage() {
  const { t } = useTranslation();
  const id = Number(useParams().campaignId);
  const reloadTimer = useRef<number | undefined>(undefined);
  const report = useCampaignReport(id, () => {
    window.clearTimeout(reloadTimer.current);
    reloadTimer.current = window.setTimeout(() => void report.refetch(), REPORT_REFRESH_AFTER_FINISH_MS);
  });
  useEffect(() => () => window.clearTimeout(reloadTimer.current), []);
  const c = report.data;
  const percent = c && c.validContacts > 0 ? Math.min(100, Math.round((c.delivered / c.validContacts) * 100)) : 0;
  return (
    <PageShell title={t('campaigns.report.title')}>
      {!c ? (
        <ListState loading={report.isPending} error={report.isError} empty={false} onRetry={() => void report.refetch()} />
      ) : (
        <Stack spacing={3} data-testid="campaign-report">
          <Stack direction="row" justifyContent="space-between" alignItems="center">
            <Typography variant="h6" component="h2">
              {c.name} — <span data-testid="campaign-report-status" data-status={c.status}>{t(`campaigns.status.${c.status}`)}</span>
            </Typography>
            <Button variant="outlined" startIcon={<ArrowBackIcon />} component={RouterLink} to="/campaigns" data-testid="campaign-report-back">
              {t('campaigns.report.back')}
            </Button>
          </Stack>
          <Box>
            <Typography variant="body2" data-testid="campaign-report-progress-text">
              {t('campaigns.report.progress', { delivered: c.delivered, valid: c.validContacts })}
            </Typography>
            <LinearProgress variant="determinate" value={percent} aria-label={t('campaigns.report.progress', { delivered: c.delivered, valid: c.validContacts })} data-testid="campaign-report-progress" data-value={percent} sx={{ height: 10, borderRadius: 1, mt: 1 }} />
          </Box>
          <Stack direction="row" flexWrap="wrap" gap={2}>
            <Figure label={t('campaigns.report.validContacts')} value={c.validContacts} testId="campaign-report-valid" />
            {c.confirmation && <Figure label={t('campaigns.report.confirmationRequested')} value={c.confirmationRequested} testId="campaign-report-requested" />}
            {c.confirmation && <Figure label={t('campaigns.report.confirmed')} value={c.confirmed} testId="campaign-report-confirmed" />}
            <Figure label={t('campaigns.report.delivered')} value={c.delivered} testId="campaign-report-delivered" />
            <Figure label={t('campaigns.report.whatsapp')} value={c.whatsapp?.name ?? t('campaigns.notDefined')} testId="campaign-report-whatsapp" />
            <Figure label={t('campaigns.report.contactList')} value={c.contactList?.name ?? t('campaigns.notDefined')} testId="campaign-report-list" />
            <Figure label={t('campaigns.report.schedule')} value={c.scheduledAt ? dateTime(c.scheduledAt) : t('campaigns.noSchedule')} testId="campaign-report-schedule" />
            <Figure label={t('campaigns.report.conclusion')} value={c.completedAt ? dateTime(c.completedAt) : t('campaigns.notCompleted')} testId="campaign-report-conclusion" />
          </Stack>
        </Stack>
      )}
    </PageShell>
  );
}
