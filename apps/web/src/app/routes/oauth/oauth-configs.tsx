// OAuth Configs (spec 1 §2): a create button, one expandable card per config, Edit and Delete
// dialogs.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink } from 'react-router';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import type { OAuthApp } from '@parla/shared/schemas/oauth';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { useDeleteOauthApp } from '../../../features/oauth-configs/api/delete-oauth-app';
import { useOauthApps } from '../../../features/oauth-configs/api/get-oauth-apps';
import { EditOAuthAppDialog } from '../../../features/oauth-configs/components/edit-oauth-app-dialog';
import { OAuthAppCard } from '../../../features/oauth-configs/components/oauth-app-card';

export default function OAuthConfigsRoute() {
  const apps = useOauthApps();
  const remove = useDeleteOauthApp();
  const [editing, setEditing] = useState<OAuthApp | null>(null);
  const [deleting, setDeleting] = useState<OAuthApp | null>(null);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 4 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h1" sx={{ flex: 1 }}>
          OAuth Configs
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={paths.addOauthApp}>
          Create OAuth Config
        </Button>
      </Box>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Let your avatars&apos; users sign in with their Google or SmartPension account before a conversation starts.{' '}
        <Link component={RouterLink} to={paths.oauthHelp}>
          How OAuth configs work
        </Link>
      </Typography>

      <Box sx={{ mt: 3 }}>
        {apps.isPending && <PageLoading label="Loading OAuth configs..." />}
        {apps.isError && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void apps.refetch()}>
                Retry
              </Button>
            }
          >
            {SCREEN_MESSAGES.appsFailed}
          </Alert>
        )}
        {apps.data && apps.data.oauthApps.length === 0 && (
          <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
            <Typography sx={{ fontWeight: 600 }}>No OAuth configs yet</Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              Create one with the client ID and secret your identity service gave you.
            </Typography>
          </Paper>
        )}
        {apps.data && apps.data.oauthApps.length > 0 && (
          <Stack spacing={1.5}>
            {apps.data.oauthApps.map((app) => (
              <OAuthAppCard key={app.appId} app={app} onEdit={() => setEditing(app)} onDelete={() => setDeleting(app)} />
            ))}
          </Stack>
        )}
      </Box>

      <EditOAuthAppDialog app={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete OAuth Config"
        confirmLabel="Delete"
        successMessage={SCREEN_MESSAGES.deleted}
        errorTitle={SCREEN_MESSAGES.deleteOauthFailed}
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.appId);
        }}
        onClose={() => setDeleting(null)}
      >
        {`Delete the OAuth config "${deleting?.appName ?? ''}"? Avatars that use it can no longer sign their users in.`}
      </ConfirmDialog>
    </Container>
  );
}
