import { useTranslation } from 'react-i18next';
import { useUser } from '../../api/session';
import { Forbidden } from '../../components/Forbidden';
import { PageShell } from '../../components/PageShell';

/** Route /. A plain user without showDashboard gets the 403 page (spec 2 §2); indicators come with the dashboard issue. */
export function DashboardPage() {
  const { t } = useTranslation();
  const user = useUser();
  if (user.profile === 'user' && user.showDashboard !== 'enabled') return <Forbidden />;
  return <PageShell title={t('pages.dashboard')} />;
}
