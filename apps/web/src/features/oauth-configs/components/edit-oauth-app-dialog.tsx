// Edit an OAuth config in a dialog with the same stepper; on success the dialog closes after
// 3 seconds (spec 1 §4).
import { useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { OAUTH_EDIT_CLOSE_MS } from '@parla/shared/limits';
import type { OAuthApp } from '@parla/shared/schemas/oauth';
import { ErrorAlert } from '../../../components/error-alert';
import { useSaveOauthApp } from '../api/save-oauth-app';
import { OAuthAppStepper } from './oauth-app-stepper';

export function EditOAuthAppDialog({ app, onClose }: { app: OAuthApp | null; onClose: () => void }) {
  const save = useSaveOauthApp();
  const timer = useRef<number | undefined>(undefined);
  const { reset } = save;

  useEffect(() => {
    reset();
    return () => window.clearTimeout(timer.current);
  }, [app?.appId, reset]);

  const close = () => {
    window.clearTimeout(timer.current);
    onClose();
  };

  return (
    <Dialog open={app !== null} onClose={save.isPending ? undefined : close} maxWidth="sm" fullWidth aria-labelledby="edit-oauth-title">
      <DialogTitle id="edit-oauth-title" sx={{ pr: 6 }}>
        Edit OAuth Config
        <IconButton aria-label="Close" onClick={close} disabled={save.isPending} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {app && (
          <OAuthAppStepper
            key={app.appId}
            initial={{
              appName: app.appName,
              partner: app.partner,
              clientId: app.clientId,
              clientSecret: app.clientSecret,
              oauthURL: app.oauthURL,
              tokenIssueURL: app.tokenIssueURL,
              issuer: app.issuer ?? '',
              jwksURL: app.jwksURL ?? '',
            }}
            secretHelp="Shown masked. Leave it as it is to keep the stored secret, or type a new one."
            submitting={save.isPending}
            done={save.isSuccess}
            onSubmit={(values) =>
              save.mutate(
                { ...values, appId: app.appId },
                { onSuccess: () => (timer.current = window.setTimeout(onClose, OAUTH_EDIT_CLOSE_MS)) },
              )
            }
          />
        )}
        {save.isSuccess && (
          <Alert severity="success" sx={{ mt: 2 }}>
            {SCREEN_MESSAGES.oauthUpdated}
          </Alert>
        )}
        {save.isError && <ErrorAlert title={SCREEN_MESSAGES.addOauthFailed} error={save.error} />}
      </DialogContent>
    </Dialog>
  );
}
