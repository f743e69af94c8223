// Custom image avatars (spec 2 §2, §6): FREE, STARTER and NONE plans are asked to upgrade to PRO
// or ENTERPRISE; other plans get the instructions to email a photo (24-48 h turnaround).
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../../config/paths';

/** Where customers send the photo a custom image avatar is made from. */
export const CUSTOM_AVATAR_EMAIL = 'avatars@parla.example';

/** `what`: a custom image avatar (the e-mail instructions) or an own 3D avatar (the upgrade prompt only: allowed plans upload it in the grid). */
export function CustomImageAvatarDialog({
  open,
  allowed,
  onClose,
  what = 'image',
}: {
  open: boolean;
  allowed: boolean;
  onClose(): void;
  what?: 'image' | '3d';
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="custom-avatar-title">
      {allowed && what === 'image' ? (
        <>
          <DialogTitle id="custom-avatar-title">Create a custom image avatar</DialogTitle>
          <DialogContent>
            <Typography gutterBottom>
              Email a clear, front-facing photo (PNG or JPEG, at least 1024 × 1024 px, neutral expression, mouth closed) to{' '}
              <strong>{CUSTOM_AVATAR_EMAIL}</strong> from the address of your account.
            </Typography>
            <Typography color="text.secondary">
              We turn it into an image avatar in about 24-48 hours. It then appears in the IMAGE AVATARS grid of every avatar you edit.
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button href={`mailto:${CUSTOM_AVATAR_EMAIL}?subject=${encodeURIComponent('Custom image avatar')}`}>Open email</Button>
            <Button variant="contained" onClick={onClose}>
              OK
            </Button>
          </DialogActions>
        </>
      ) : (
        <>
          <DialogTitle id="custom-avatar-title">Higher Subscription Plan Required</DialogTitle>
          <DialogContent>
            <Typography>
              {what === 'image'
                ? 'Custom image avatars are part of the PRO and ENTERPRISE plans. Upgrade your subscription on the account page to request one.'
                : 'Your own 3D avatars (.glb or .vrm) are part of the PRO and ENTERPRISE plans. Upgrade your subscription on the account page to upload one.'}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="contained" component={RouterLink} to={paths.account} onClick={onClose}>
              See plans
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
