// Admin-proxy sign-in (spec 4 §4): /login?adminSessionId=…&email=… signs in at once as that
// customer; the session is kept in memory only. The code is single use, so the attempt is
// made once per code even when React runs effects twice.
import { useEffect } from 'react';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { useLogin } from '../api/login';

const attempted = new Set<string>();

export function AdminProxySignIn({ email, adminSessionId, onSignedIn }: { email: string; adminSessionId: string; onSignedIn: () => void }) {
  const login = useLogin();
  const { mutate } = login;
  useEffect(() => {
    if (attempted.has(adminSessionId)) return;
    attempted.add(adminSessionId);
    mutate({ email, adminSessionId, rememberMe: false }, { onSuccess: onSignedIn });
  }, [adminSessionId, email, mutate, onSignedIn]);

  if (login.isError) {
    return (
      <>
        <ErrorAlert title="Sigin In Failed" error={login.error} />
        <Button component={RouterLink} to={paths.login} sx={{ mt: 2 }}>
          Back to Sign In
        </Button>
      </>
    );
  }
  return <PageLoading label={`Signing in as ${email}...`} />;
}
