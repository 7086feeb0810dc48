import { Navigate } from 'react-router';
import { useSession } from '../api/session';
import { landingPath } from './landingPath';

/** Redirects to the signed-in user's first screen (or to /login without a session). */
export function Landing() {
  const { user, loading } = useSession();
  if (loading) return null;
  return <Navigate to={user ? landingPath(user) : '/login'} replace />;
}
