// Sign out (spec 1 §2): 'Signing out...' while the server ends the session, then the
// logged-out view with 'Login Again'. Reachable without being signed in.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { logout } from '../../../features/auth/api/logout';
import { authStore } from '../../../lib/auth-session';

export default function SignOutRoute() {
  const [signingOut, setSigningOut] = useState(() => authStore.get() !== null);

  useEffect(() => {
    if (!signingOut) return;
    let live = true;
    void logout().finally(() => live && setSigningOut(false));
    return () => {
      live = false;
    };
  }, [signingOut]);

  if (signingOut) {
    return (
      <AuthCard title="Sign out">
        <PageLoading label="Signing out..." />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="You are signed out">
      <Typography color="text.secondary">Your session has ended on this device.</Typography>
      <Button variant="contained" component={RouterLink} to={paths.login} sx={{ mt: 3 }}>
        Login Again
      </Button>
    </AuthCard>
  );
}
