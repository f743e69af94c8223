// Home: skipped by default (spec 1 §2): signed-in admins go to Online Users, customers to the
// Avatar Creator, visitors to sign-in. With skipHome off, visitors see this landing page.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, Navigate } from 'react-router';
import { homeFor, paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-session';
import { usePortalSettings } from '../../lib/portal-settings';

export default function HomeRoute() {
  const session = useAuth();
  const { skipHome, productName, allowRegistration } = usePortalSettings();
  if (session) return <Navigate to={homeFor(session.userType)} replace />;
  if (skipHome) return <Navigate to={paths.login} replace />;
  return (
    <Container maxWidth="md" sx={{ py: 10, textAlign: 'center' }}>
      <Typography variant="h1">Talking avatars for your website</Typography>
      <Typography color="text.secondary" sx={{ mt: 2, fontSize: '1.15rem' }}>
        {productName} gives your AI agent a face that speaks: build it, connect its brain, and embed it with one line.
      </Typography>
      <Box sx={{ mt: 4, display: 'flex', gap: 2, justifyContent: 'center' }}>
        <Button variant="contained" size="large" component={RouterLink} to={paths.login}>
          Sign In
        </Button>
        {allowRegistration && (
          <Button variant="outlined" size="large" component={RouterLink} to={paths.register}>
            Register
          </Button>
        )}
      </Box>
    </Container>
  );
}
