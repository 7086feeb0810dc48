import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCompany, useSaveCompanySchedules } from '../../api/companies';
import { HoursEditor } from '../../components/HoursEditor';
import { ListState } from '../../components/ListStates';
import { toast, toastError } from '../../components/toast';

/** Settings → schedules (scheduleType 'company'): the company's opening hours. */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const company = useCompany(companyId);
  const save = useSaveCompanySchedules(companyId);
  if (!company.data) {
    return <ListState loading={company.isPending} error={company.isError} empty={false} onRetry={() => void company.refetch()} />;
  }
  return (
    <Stack spacing={2} data-testid="settings-schedules">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('settings.schedules.title')}
      </Typography>
      <HoursEditor
        value={company.data.schedules}
        onSubmit={async (schedules) => {
          try {
            await save.mutateAsync(schedules);
            toast.success(t('settings.schedules.saved'));
          } catch (err) {
            toastError(err);
          }
        }}
      />
    </Stack>
  );
}
