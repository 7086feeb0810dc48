import './texts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REPORT_NO_QUEUE, REPORT_PAGE_SIZES, reportCountLimit } from '@balcao/contracts';
import { useTranslation } from 'react-i18next';
import { useQueues } from '../../api/queues';
import { useConnectionOptions } from '../../api/users';
import { useUser } from '../../api/session';
import { MultiSelectInput } from '../../components/fields/SelectInputs';
import { Forbidden } from '../../components/Forbidden';
import { PageShell } from '../../components/PageShell';
import { toast } from '../../components/toast';
import { monthToDate } from '../dashboard/dates';
import { ContactFilter } from './ContactFilter';
import { downloadReport, useReport, useUserOptions, type ReportFilterValues } from './reportQueries';
import { ReportTable } from './ReportTable';

const STATUSES = ['open', 'pending', 'closed', 'group', 'nps'] as const;

function initialFilter(): ReportFilterValues {
  const { from, to } = monthToDate();
  return { contact: null, whatsappIds: [], statuses: [], userIds: [], queueIds: [], dateFrom: from, dateTo: to, onlyRated: false };
}

/** Route /reports (spec 2 §2 Reports): filters, the paged table, and the server's streamed Excel export. */
export function ReportsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const allowed = user.profile !== 'user' || user.showDashboard === 'enabled';
  const form = useForm<ReportFilterValues>({ defaultValues: initialFilter() });
  const [applied, setApplied] = useState<ReportFilterValues | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [exporting, setExporting] = useState<number | null>(null);
  const report = useReport(allowed ? applied : null, page, pageSize);
  const connections = useConnectionOptions(allowed);
  const users = useUserOptions();
  const queues = useQueues(allowed);
  if (!allowed) return <Forbidden />;

  const apply = form.handleSubmit((values) => {
    setApplied(values);
    setPage(1);
  });
  const exportReport = form.handleSubmit(async (values) => {
    setExporting(0);
    try {
      await downloadReport(values, setExporting);
    } catch {
      toast.error(t('reports.export.error'));
    } finally {
      setExporting(null);
    }
  });
  const rows = report.data?.tickets ?? [];
  const { control } = form;

  return (
    <PageShell title={t('pages.reports')}>
      <Box component="form" onSubmit={apply} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', alignItems: 'center', mb: 2 }}>
        <ContactFilter value={form.watch('contact')} onChange={(v) => form.setValue('contact', v)} />
        <MultiSelectInput
          control={control}
          name="whatsappIds"
          label={t('reports.filters.connections')}
          testId="report-whatsapps"
          options={(connections.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
        <MultiSelectInput
          control={control}
          name="statuses"
          label={t('reports.filters.status')}
          testId="report-status"
          options={STATUSES.map((s) => ({ value: s, label: t(`reports.statuses.${s}`) }))}
        />
        <MultiSelectInput
          control={control}
          name="userIds"
          label={t('reports.filters.users')}
          testId="report-users"
          options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
        />
        <MultiSelectInput
          control={control}
          name="queueIds"
          label={t('reports.filters.queues')}
          testId="report-queues"
          options={[{ value: REPORT_NO_QUEUE, label: t('reports.noQueue') }, ...(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))]}
        />
        <TextField
          type="date"
          size="small"
          label={t('reports.filters.from')}
          {...form.register('dateFrom')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'report-from' } }}
        />
        <TextField
          type="date"
          size="small"
          label={t('reports.filters.to')}
          {...form.register('dateTo')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'report-to' } }}
        />
        <FormControlLabel control={<Checkbox {...form.register('onlyRated')} data-testid="report-only-rated" />} label={t('reports.filters.onlyRated')} />
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button type="submit" variant="contained" data-testid="report-apply">
            {t('reports.filters.apply')}
          </Button>
          <Button variant="outlined" onClick={() => void exportReport()} disabled={exporting !== null} data-testid="report-export">
            {t('reports.export.button')}
          </Button>
        </Box>
      </Box>
      {exporting !== null && (
        <Box sx={{ mb: 2 }} data-testid="report-export-progress">
          <LinearProgress aria-label={t('reports.export.progress')} />
          <Typography variant="body2" color="text.secondary">
            {t('reports.export.received', { kb: Math.round(exporting / 1024) })}
          </Typography>
        </Box>
      )}
      {applied === null ? (
        <Alert severity="info" data-testid="report-empty">
          {t('reports.empty')}
        </Alert>
      ) : (
        <>
          <ReportTable
            rows={rows}
            state={{ loading: report.isLoading, error: report.isError, empty: !report.isLoading && rows.length === 0, onRetry: () => void report.refetch() }}
          />
          <TablePagination
            component="div"
            count={report.data?.totalTickets.total ?? 0}
            page={page - 1}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[...REPORT_PAGE_SIZES]}
            onPageChange={(_e, p) => setPage(p + 1)}
            onRowsPerPageChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(1);
            }}
            labelRowsPerPage={t('reports.pageSize')}
            // The server stops counting at reportCountLimit: a total there means "this many or more".
            labelDisplayedRows={({ from, to, count }) =>
              t(count === reportCountLimit(page, pageSize) ? 'reports.shownAtLeast' : 'reports.shown', { from, to, count })
            }
            data-testid="report-pagination"
          />
        </>
      )}
    </PageShell>
  );
}
