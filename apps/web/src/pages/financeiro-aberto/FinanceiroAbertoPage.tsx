import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../api/session';
import { formatDate } from '../../components/format';
import { PageShell } from '../../components/PageShell';

/** Where a login with an expired subscription lands (spec 1 §4). */
export function FinanceiroAbertoPage() {
  const { t } = useTranslation();
  const user = useUser();
  return (
    <PageShell title={t('pages.financeiroAberto')}>
      <Alert severity="error" data-testid="subscription-expired">
        <AlertTitle>{t('financeiroAberto.message', { date: formatDate(user.company.dueDate) })}</AlertTitle>
        {t('financeiroAberto.contact')}
      </Alert>
    </PageShell>
  );
}
