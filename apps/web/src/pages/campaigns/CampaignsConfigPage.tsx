import { useTranslation } from 'react-i18next';
import { ListState } from '../../components/ListStates';
import { PageShell } from '../../components/PageShell';
import { CampaignSettingsForm } from './CampaignSettingsForm';
import { useCampaignSettings } from './queries';
import './texts';

/** /campaigns-config: the campaign settings on a page of their own. */
export function CampaignsConfigPage() {
  const { t } = useTranslation();
  const settings = useCampaignSettings();
  return (
    <PageShell title={t('campaigns.settingsDialog.title')}>
      {settings.data ? (
        <CampaignSettingsForm values={settings.data} />
      ) : (
        <ListState loading={settings.isPending} error={settings.isError} empty={false} onRetry={() => void settings.refetch()} />
      )}
    </PageShell>
  );
}
