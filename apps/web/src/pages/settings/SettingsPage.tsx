import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useUser } from '../../api/session';
import { useCompanySettings, useSettingsLive } from '../../api/settings';
import { NoPermission } from '../../components/NoPermission';
import { CompaniesManager } from '../companies/CompaniesManager';
import { AuditLogTab } from './AuditLogTab';
import { HelpsManager } from '../helps/HelpsManager';
import { OptionsTab } from './OptionsTab';
import { PlansManager } from './PlansManager';
import { SchedulesTab } from './SchedulesTab';
import { WhitelabelTab } from './WhitelabelTab';
import { settingsTabs, type SettingsTab } from './tabs';

/** /settings: a plain user sees the no-permission view. */
export function SettingsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const settings = useCompanySettings(user.companyId);
  useSettingsLive(user.companyId);
  const [params, setParams] = useSearchParams();
  if (user.profile === 'user') return <NoPermission />;

  const scheduleType = settings.data?.scheduleType ?? user.company.companieSettings.scheduleType;
  const tabs = settingsTabs(user.super, scheduleType);
  const wanted = params.get('tab');
  const tab: SettingsTab = tabs.find((x) => x === wanted) ?? 'options';

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, flex: '1 0 auto' }} data-testid="settings-page">
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {t('settings.title')}
      </Typography>
      <Paper variant="outlined" sx={{ flex: '1 0 auto', display: 'flex', flexDirection: 'column' }}>
        <Tabs
          value={tab}
          onChange={(_e, v: SettingsTab) => setParams(v === 'options' ? {} : { tab: v }, { replace: true })}
          variant="scrollable"
          scrollButtons="auto"
          sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
        >
          {tabs.map((x) => (
            <Tab key={x} value={x} label={t(`settings.tabs.${x}`)} data-testid={`settings-tab-${x}`} />
          ))}
        </Tabs>
        <Box sx={{ p: { xs: 1.5, sm: 3 }, flex: '1 0 auto', display: 'flex', flexDirection: 'column' }}>
          {tab === 'options' && <OptionsTab companyId={user.companyId} />}
          {tab === 'schedules' && <SchedulesTab companyId={user.companyId} />}
          {tab === 'audit' && <AuditLogTab />}
          {tab === 'companies' && <CompaniesManager />}
          {tab === 'plans' && <PlansManager />}
          {tab === 'helps' && <HelpsManager />}
          {tab === 'whitelabel' && <WhitelabelTab />}
        </Box>
      </Paper>
    </Box>
  );
}
