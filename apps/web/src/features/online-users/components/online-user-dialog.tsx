// The detail of one online user (spec 1 §2: a dialog with refresh; §4: load, then a table or an error).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { OnlineUserDetail } from '@parla/shared/schemas/conversation';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { useOnlineUser } from '../api/get-online-user';
import type { OnlineUsersScope } from '../api/get-online-users';
import { RefreshButton } from './refresh-button';

const FIELDS: [keyof OnlineUserDetail, string][] = [
  ['sessionId', 'Session Id'],
  ['userName', 'User Name'],
  ['userId', 'User Id'],
  ['onlineStatus', 'Status'],
  ['deviceId', 'Device Id'],
  ['deviceOS', 'Device OS'],
  ['deviceCount', 'Device Count'],
  ['locale', 'Locale'],
  ['spokenLanguage', 'Spoken Language'],
  ['ipAddress', 'IP Address'],
  ['lastConnectTimeStamp', 'Last Connect Time'],
  ['avatarName', 'Avatar Name'],
  ['avatarIdAndType', 'Avatar Id and Type'],
];

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function OnlineUserDialog({ scope, sessionId, onClose }: { scope: OnlineUsersScope; sessionId: string | null; onClose: () => void }) {
  const query = useOnlineUser(scope, sessionId);
  const detail = query.data?.userDetail;
  return (
    <Dialog open={!!sessionId} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="online-user-title">
      <DialogTitle id="online-user-title" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        User Details
        <RefreshButton onClick={() => void query.refetch()} busy={query.isFetching} label="Refresh user details" />
      </DialogTitle>
      <DialogContent dividers>
        {query.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label="Loading user details" />
          </Box>
        )}
        {query.isError && <Alert severity="error">{SCREEN_MESSAGES.userDetailsFailed}</Alert>}
        {detail && (
          <Table size="small" aria-label="User details">
            <TableBody>
              {FIELDS.map(([key, label]) => (
                <TableRow key={key}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600, width: '40%' }}>{label}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{key === 'lastConnectTimeStamp' ? formatTime(String(detail[key])) : String(detail[key] ?? '') || '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
