// /chatWidget/{avatarId} (spec 1 §2): the player for one avatar filling the page, without navbar
// or footer, for embedding as a chat widget. The query (token, embed parameters) goes to the player.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLocation, useParams } from 'react-router';
import { isAvatarId } from '@parla/shared/schemas/avatar-id';

export default function ChatWidgetRoute() {
  const { avatarId = '' } = useParams();
  const { search } = useLocation();
  // The one avatar id rule (decision 206): exactly a lower-case UUID.
  if (!isAvatarId(avatarId)) {
    return (
      <Box sx={{ p: 3 }}>
        <Typography>This chat widget link is not valid.</Typography>
      </Box>
    );
  }
  return (
    <Box
      component="iframe"
      title="Chat with the avatar"
      src={`/avatar/${encodeURIComponent(avatarId)}${search}`}
      allow="camera; microphone; fullscreen; autoplay; encrypted-media; picture-in-picture"
      sx={{ position: 'fixed', inset: 0, width: '100%', height: '100%', border: 0, display: 'block' }}
    />
  );
}
