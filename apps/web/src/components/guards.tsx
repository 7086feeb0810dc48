import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PLAN_DENIAL_REDIRECT_MS, type PlanFlag } from '@balcao/contracts';
import { useUser } from '../api/session';
import { NoPermission } from './NoPermission';
import { toast } from './toast';

/** Spec 1 §6: toast and go to / after 1 s; shows nothing meanwhile. */
function DeniedRedirect() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fired = useRef(false);
  useEffect(() => {
    if (fired.current) return;
    fired.current = true;
    toast.error(t('planDenied'));
    const timer = setTimeout(() => navigate('/'), PLAN_DENIAL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, t]);
  return null;
}

/** A page the company's plan must include. */
export function PlanGate({ flag, children }: { flag: PlanFlag; children: ReactNode }) {
  const user = useUser();
  if (user.company.plan?.[flag] !== true) return <DeniedRedirect />;
  return <>{children}</>;
}

/** Pages a plain profile 'user' sees as a no-access view. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const user = useUser();
  if (user.profile !== 'admin') return <NoPermission />;
  return <>{children}</>;
}

/** Connections: admins or users with allowConnections. */
export function ConnectionsAccess({ children }: { children: ReactNode }) {
  const user = useUser();
  if (user.profile !== 'admin' && user.allowConnections !== 'enabled') return <NoPermission />;
  return <>{children}</>;
}

/** Super-user pages: others get the denial toast and go to / (announcements, companies). */
export function SuperOnly({ children }: { children: ReactNode }) {
  const user = useUser();
  if (!user.super) return <DeniedRedirect />;
  return <>{children}</>;
}

/** /allConnections: non-super users are redirected to /tickets (spec 1 §2). */
export function SuperOrTickets({ children }: { children: ReactNode }) {
  const user = useUser();
  if (!user.super) return <Navigate to="/tickets" replace />;
  if (user.profile === 'user') return <NoPermission />;
  return <>{children}</>;
}
