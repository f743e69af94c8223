// 'VPS Details' (spec 1 §2): every field of the node, with refresh; load, then a table or an error.
import type { Vps } from '@parla/shared/schemas/conversation';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { DetailsDialog, formatTime, shown } from '../../../components/details-dialog';
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
  const rows = vps
    ? FIELDS.map(([key, label]) => ({
        label,
        value:
          key === 'status' ? (
            <VpsStatusChip status={vps.status} />
          ) : TIMES.has(key) && vps[key] ? (
            formatTime(String(vps[key]))
          ) : (
            shown(vps[key])
          ),
      }))
    : null;
  return (
    <DetailsDialog
      open={!!vpsId}
      title="VPS Details"
      subject="VPS"
      query={query}
      errorMessage={SCREEN_MESSAGES.vpsDetailsFailed}
      rows={rows}
      onClose={onClose}
    />
  );
}
