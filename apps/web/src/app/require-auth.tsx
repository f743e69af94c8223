// Protected routes: signed-out visitors go to /login, which brings them back afterwards;
// a route for the other role sends the user to their own home.
import { Navigate, Outlet, useLocation } from 'react-router';
import { homeFor, paths } from '../config/paths';
import { useAuth } from '../lib/auth-session';

export interface FromState {
  from?: string;
}

export function RequireAuth({ role }: { role?: 'ADMIN' | 'CUSTOMER' }) {
  const session = useAuth();
  const location = useLocation();
  if (!session) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.login} replace state={{ from } satisfies FromState} />;
  }
  if (role && session.userType !== role) return <Navigate to={homeFor(session.userType)} replace />;
  return <Outlet />;
}
