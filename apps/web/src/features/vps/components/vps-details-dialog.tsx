// 'VPS Details' (spec 1 §2): every field of the node, with refresh; load, then a table or an error.
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
import type { Vps } from '@parla/shared/schemas/conversation';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { formatTime } from '../../online-users/components/online-user-dialog';
import { RefreshButton } from '../../online-users/components/refresh-button';
import { useVps } from '../api/get-vps';
import { VpsStatusChip } from './vps-status-chip';

const FIELDS: [keyof Vps, string][] = [
  ['vpsId', 'VPS Id'],
  ['vpsName', 'Name'],
  ['status', 'Status'],
  ['sessionId', 'Session Id'],
  ['sessions', 'Conversations'],
  ['capacity', 'Capacity'],
  ['vpsAddress', 'Address'],
  ['dockerPrivateIp', 'Private IP'],
  ['remoteIp', 'Remote IP'],
  ['assignedUserId', 'Assigned User Id'],
  ['webSocket', 'WebSocket'],
  ['created', 'Created'],
  ['lastConnectTime', 'Last Connect Time'],
  ['lastPingTime', 'Last Ping Time'],
  ['lastUsedTime', 'Last Used Time'],
];

const TIMES = new Set<keyof Vps>(['created', 'lastConnectTime', 'lastPingTime', 'lastUsedTime']);

export function VpsDetailsDialog({ vpsId, onClose }: { vpsId: string | null; onClose: () => void }) {
  const query = useVps(vpsId);
  const vps = query.data?.vpsDetail;
  return (
    <Dialog open={!!vpsId} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="vps-details-title">
      <DialogTitle id="vps-details-title" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        VPS Details
        <RefreshButton onClick={() => void query.refetch()} busy={query.isFetching} label="Refresh VPS details" />
      </DialogTitle>
      <DialogContent dividers>
        {query.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label="Loading VPS details" />
          </Box>
        )}
        {query.isError && <Alert severity="error">{SCREEN_MESSAGES.vpsDetailsFailed}</Alert>}
        {vps && (
          <Table size="small" aria-label="VPS details">
            <TableBody>
              {FIELDS.map(([key, label]) => (
                <TableRow key={key}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600, width: '40%' }}>{label}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    {key === 'status' ? <VpsStatusChip status={vps.status} /> : TIMES.has(key) && vps[key] ? formatTime(String(vps[key])) : String(vps[key] ?? '') || '—'}
                  </TableCell>
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
