// 'Online Users' of an avatar (spec 1 §2, spec 2 §2): a count and expandable cards; the session
// id is shown truncated to 20 characters.
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { SESSION_ID_TRUNCATE } from '@parla/shared/limits';
import type { AvatarOnlineUser } from '@parla/shared/schemas/avatar';
import { errorLines } from '../../../lib/api-client';
import { useAvatarUsers } from '../api/get-avatar-users';

export const truncateSession = (id: string) => (id.length > SESSION_ID_TRUNCATE ? `${id.slice(0, SESSION_ID_TRUNCATE)}…` : id);

function UserCard({ user }: { user: AvatarOnlineUser }) {
  const rows: [string, string | null][] = [
    ['Session Id', user.sessionId],
    ['Status', user.onlineStatus],
    ['Device OS', user.deviceOS],
    ['Locale', user.locale],
    ['Spoken Language', user.spokenLanguage],
    ['IP Address', user.ipAddress],
    ['Connected', new Date(user.lastConnectTimeStamp).toLocaleString()],
  ];
  return (
    <Accordion disableGutters variant="outlined">
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Box>
          <Typography sx={{ fontWeight: 600 }}>{user.userName}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {truncateSession(user.sessionId)}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
          {rows.map(([k, v]) => (
            <Box key={k} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {k}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
                {v || '—'}
              </Typography>
            </Box>
          ))}
        </Box>
      </AccordionDetails>
    </Accordion>
  );
}

export function OnlineUsersDialog({ agentId, name, open, onClose }: { agentId: string; name: string; open: boolean; onClose(): void }) {
  const users = useAvatarUsers(agentId, open);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="online-users-title">
      <DialogTitle id="online-users-title">Online Users</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 1.5 }}>
          {name}
        </Typography>
        {users.isPending && <CircularProgress size={28} aria-label="Loading online users" />}
        {users.isError && (
          <Alert severity="error">
            <AlertTitle>{SCREEN_MESSAGES.onlineUsersFailed}</AlertTitle>
            {errorLines(users.error).join(' ')}
          </Alert>
        )}
        {users.isSuccess && (
          <>
            <Typography sx={{ fontWeight: 700, mb: 1 }}>
              {users.data.onlineUsers.length} {users.data.onlineUsers.length === 1 ? 'user' : 'users'} online
            </Typography>
            <Box sx={{ display: 'grid', gap: 1 }}>
              {users.data.onlineUsers.map((u) => (
                <UserCard key={u.sessionId} user={u} />
              ))}
            </Box>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void users.refetch()} disabled={users.isFetching}>
          Refresh
        </Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
