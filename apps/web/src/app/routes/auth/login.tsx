import { useCallback } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { paths } from '../../../config/paths';
import { AdminProxySignIn } from '../../../features/auth/components/admin-proxy-sign-in';
import { LoginFormView } from '../../../features/auth/components/login-form';
import { useAuth } from '../../../lib/auth-session';
import type { FromState } from '../../require-auth';

export default function LoginRoute() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const session = useAuth();
  const from = (location.state as FromState | null)?.from;
  const adminSessionId = params.get('adminSessionId');
  const email = params.get('email');

  const done = useCallback(() => navigate(from && from !== paths.signout ? from : paths.home, { replace: true }), [from, navigate]);

  if (adminSessionId && email) {
    return (
      <AuthCard title="Administrator sign-in">
        <AdminProxySignIn email={email} adminSessionId={adminSessionId} onSignedIn={done} />
      </AuthCard>
    );
  }
  if (session) return <Navigate to={from ?? paths.home} replace />;
  return (
    <AuthCard title="Sign in" subtitle="Welcome back. Sign in to build and manage your avatars.">
      <LoginFormView onSignedIn={done} />
    </AuthCard>
  );
}
