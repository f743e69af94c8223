// Create an OAuth config (spec 1 §2, §4): the stepper; on success a success box, then after
// 3 seconds the list.
import { useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { OAUTH_SUCCESS_REDIRECT_MS } from '@parla/shared/limits';
import { ErrorAlert } from '../../../components/error-alert';
import { paths } from '../../../config/paths';
import { useSaveOauthApp } from '../../../features/oauth-configs/api/save-oauth-app';
import { EMPTY_OAUTH_APP, OAuthAppStepper } from '../../../features/oauth-configs/components/oauth-app-stepper';

export default function AddOAuthAppRoute() {
  const navigate = useNavigate();
  const timer = useRef<number | undefined>(undefined);
  const save = useSaveOauthApp({
    onSuccess: () => {
      timer.current = window.setTimeout(() => navigate(paths.oauthConfigs), OAUTH_SUCCESS_REDIRECT_MS);
    },
  });
  useEffect(() => () => window.clearTimeout(timer.current), []);

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 2, sm: 4 } }}>
      <Typography variant="body2">
        <Link component={RouterLink} to={paths.oauthConfigs}>
          OAuth Configs
        </Link>
      </Typography>
      <Typography variant="h1" sx={{ mt: 1 }}>
        Create OAuth Config
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Register a client with your identity service first;{' '}
        <Link component={RouterLink} to={paths.oauthHelp}>
          the help page
        </Link>{' '}
        explains how.
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
        <OAuthAppStepper
          initial={EMPTY_OAUTH_APP}
          prefillUrls
          submitting={save.isPending}
          done={save.isSuccess}
          onSubmit={(values) => save.mutate(values)}
        />
        {save.isSuccess && (
          <Alert severity="success" sx={{ mt: 2 }}>
            {SCREEN_MESSAGES.oauthCreated} Its callback URL is {save.data.oauthApp.callbackURL}
          </Alert>
        )}
        {save.isError && <ErrorAlert title={SCREEN_MESSAGES.addOauthFailed} error={save.error} />}
      </Paper>
    </Container>
  );
}
