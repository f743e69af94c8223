// /addavatar: where the add button leads on mobile. Creating avatars needs a desktop (spec 2 §1,
// §6), so a phone is told so; a desktop-width window gets the creator itself.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { AvatarsScreen } from '../../../features/avatars/components/avatars-screen';
import { MOBILE_QUERY } from '../../theme';

export default function AddAvatarRoute() {
  const mobile = useMediaQuery(MOBILE_QUERY);
  if (!mobile) return <AvatarsScreen />;
  return (
    <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Add Avatar
      </Typography>
      <Alert severity="info">
        Creating and editing avatars needs a larger screen. Please open the Avatar Creator on a desktop computer; your new avatar then
        appears in your list here.
      </Alert>
      <Button variant="contained" component={RouterLink} to={paths.avatars}>
        Back to Your Avatars
      </Button>
    </Box>
  );
}
