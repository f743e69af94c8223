// The detail of one online user (spec 1 §2: a dialog with refresh; §4: load, then a table or an error).
import type { OnlineUserDetail } from '@parla/shared/schemas/conversation';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { DetailsDialog, formatTime, shown } from '../../../components/details-dialog';
import { useOnlineUser } from '../api/get-online-user';
import type { OnlineUsersScope } from '../api/get-online-users';

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

export function OnlineUserDialog({
  scope,
  sessionId,
  onClose,
}: {
  scope: OnlineUsersScope;
  sessionId: string | null;
  onClose: () => void;
}) {
  const query = useOnlineUser(scope, sessionId);
  const detail = query.data?.userDetail;
  const rows = detail
    ? FIELDS.map(([key, label]) => ({
        label,
        value: key === 'lastConnectTimeStamp' ? formatTime(String(detail[key])) : shown(detail[key]),
      }))
    : null;
  return (
    <DetailsDialog
      open={!!sessionId}
      title="User Details"
      subject="user"
      query={query}
      errorMessage={SCREEN_MESSAGES.userDetailsFailed}
      rows={rows}
      onClose={onClose}
    />
  );
}
