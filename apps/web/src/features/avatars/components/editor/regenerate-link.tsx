// EMBED → IFrame: the owner replaces the avatar's access link (decision 207). Confirmed first,
// since every page that embeds the old link stops working; the new link is shown afterwards and
// the embed code above it changes with it.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { REGENERATE_LINK_MESSAGES as M } from '@parla/shared/schemas/avatar-access';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { useRegenerateAvatarToken } from '../../api/regenerate-token';

export function RegenerateLink({ avatarId, link, onToken }: { avatarId: string; link: string; onToken(token: string): void }) {
  const [open, setOpen] = useState(false);
  const [renewed, setRenewed] = useState(false);
  const regenerate = useRegenerateAvatarToken((res) => {
    onToken(res.token);
    setRenewed(true);
  });
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 240 }}>
          Anyone with the access link can talk to this avatar. Regenerate it if it was shared where it should not have been.
        </Typography>
        <Button variant="outlined" startIcon={<AutorenewIcon />} onClick={() => setOpen(true)}>
          {M.button}
        </Button>
      </Box>
      {renewed && (
        <Alert severity="success" aria-label="New access link">
          {M.done}
          <Box component="code" sx={{ display: 'block', mt: 0.5, wordBreak: 'break-all' }}>
            {link}
          </Box>
        </Alert>
      )}
      <ConfirmDialog
        open={open}
        title={M.confirmTitle}
        confirmLabel={M.confirm}
        confirmColor="error"
        errorTitle={M.failed}
        successMessage={M.done}
        closeAfterSuccessMs={1000}
        onConfirm={async () => {
          await regenerate.mutateAsync(avatarId);
        }}
        onClose={() => setOpen(false)}
      >
        {M.confirmText}
      </ConfirmDialog>
    </Box>
  );
}
