import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useUser } from '../../api/session';
import { subscriptionState } from '../../api/subscription';
import { formatDate } from '../../components/format';
import { landingPath } from '../../layout/landingPath';
import { InvoicesTable } from '../financeiro/InvoicesTable';

/**
 * Where a login with an expired subscription lands (spec 1 §4): the expiry message above the company's
 * invoices, which it can still pay (the API answers 402 elsewhere until it does). Without an expired
 * subscription it leads to /financeiro (admins) or the user's landing screen.
 */
export function FinanceiroAbertoPage() {
  const { t } = useTranslation();
  const user = useUser();
  if (subscriptionState(user.company.id, user.company.dueDate).kind !== 'expired') {
    return <Navigate to={user.profile === 'admin' ? '/financeiro' : landingPath(user)} replace />;
  }
  const expired = (
    <Alert severity="error" data-testid="subscription-expired">
      <AlertTitle>{t('financeiroAberto.message', { date: formatDate(user.company.dueDate) })}</AlertTitle>
      {t('financeiroAberto.contact')}
    </Alert>
  );
  return user.profile === 'admin' ? <InvoicesTable header={expired} /> : expired;
}
