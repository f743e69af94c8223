// Online users (spec 1 §2): a refreshable table of User Name and Session Id; clicking a session
// opens its detail dialog. Administrators see every conversation (/onlineusers), customers the
// ones with their own avatars (/myonlineusers).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { PageLoading } from '../../../components/page-loading';
import { useOnlineUsers, type OnlineUsersScope } from '../api/get-online-users';
import { LatencyTable } from './latency-table';
import { formatTime } from '../../../components/details-dialog';
import { OnlineUserDialog } from './online-user-dialog';
import { RefreshButton } from '../../../components/refresh-button';
import { LoadMore } from '../../../components/load-more';

export function OnlineUsersScreen({ scope }: { scope: OnlineUsersScope }) {
  const query = useOnlineUsers(scope);
  const [selected, setSelected] = useState<string | null>(null);
  const users = query.data ?? [];
  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Box>
          <Typography variant="h1">Online Users</Typography>
          <Typography color="text.secondary">
            {scope === 'all' ? 'People talking to any avatar right now.' : 'People talking to your avatars right now.'}
          </Typography>
        </Box>
        <RefreshButton onClick={() => void query.refetch()} busy={query.isFetching} label="Refresh online users" />
      </Box>
      {query.isPending && <PageLoading label="Fetching online users..." />}
      {query.isError && (
        <Alert severity="error">
          <AlertTitle>{scope === 'all' ? SCREEN_MESSAGES.onlineUsersAdminFailed : SCREEN_MESSAGES.onlineUsersFailed}</AlertTitle>
          {scope === 'mine' && 'No agents were found for your account. Contact your administrator if this is unexpected.'}
        </Alert>
      )}
      {query.isSuccess && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Online users">
            <TableHead>
              <TableRow>
                <TableCell>User Name</TableCell>
                <TableCell>Session Id</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Connected</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {users.length === 0 && (
                <TableRow>
                  <TableCell colSpan={3}>
                    <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                      No one is online right now.
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {users.map((u) => (
                <TableRow key={u.sessionId} hover>
                  <TableCell>{u.userName}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    <Link
                      component="button"
                      type="button"
                      onClick={() => setSelected(u.sessionId)}
                      aria-label={`Details of session ${u.sessionId}`}
                    >
                      {u.sessionId}
                    </Link>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{formatTime(u.lastConnectTimeStamp)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <LoadMore
        shown={users.length}
        noun="online users"
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onMore={() => void query.fetchNextPage()}
      />
      <OnlineUserDialog scope={scope} sessionId={selected} onClose={() => setSelected(null)} />
      {scope === 'mine' && <LatencyTable />}
    </Container>
  );
}
