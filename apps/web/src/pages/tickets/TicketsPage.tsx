import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../components/PageShell';

/** Routes /tickets and /tickets/:ticketId; the literal 'undefined' goes back to /tickets. */
export function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  if (ticketId === 'undefined') return <Navigate to="/tickets" replace />;
  return <PageShell title={t('pages.tickets')} />;
}
