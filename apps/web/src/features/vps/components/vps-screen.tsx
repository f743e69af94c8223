// Connected VPS (spec 1 §2): a refreshable list of pipeline nodes with ID, Name, Status and a
// delete action — a table on desktop, cards on mobile. Clicking an ID opens 'VPS Details'.
// Deleting disconnects the node; the dialog closes 3 s after it finishes (spec 1 §9).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { Vps } from '@parla/shared/schemas/conversation';
import { DISK_STATE_MESSAGES, SCREEN_MESSAGES } from '@parla/shared/errors';
import { VPS_DELETE_CLOSE_MS } from '@parla/shared/limits';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageLoading } from '../../../components/page-loading';
import { MOBILE_QUERY } from '../../../config/media';
import { RefreshButton } from '../../../components/refresh-button';
import { useDeleteVps } from '../api/delete-vps';
import { getMailStatusQueryOptions } from '../api/get-mail-status';
import { useServerHealth } from '../api/get-server-health';
import { useVpsList } from '../api/get-vps-list';
import { MailStatusAlert } from './mail-status-alert';
import { VpsDetailsDialog } from './vps-details-dialog';
import { VpsStatusChip } from './vps-status-chip';

function DeleteButton({ vps, onClick }: { vps: Vps; onClick: () => void }) {
  const label = vps.inProcess ? "The server's own node cannot be deleted" : `Delete VPS ${vps.name}`;
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={`Delete VPS ${vps.name}`} onClick={onClick} disabled={vps.inProcess} color="error">
          <DeleteIcon />
        </IconButton>
      </span>
    </Tooltip>
  );
}

export function VpsScreen() {
  const query = useVpsList();
  const queryClient = useQueryClient();
  const disk = useServerHealth().data?.disk;
  const remove = useDeleteVps();
  // Refresh reads the mail outbox's health again too (its line sits above the list).
  const refresh = () => {
    void query.refetch();
    void queryClient.invalidateQueries({ queryKey: getMailStatusQueryOptions().queryKey });
  };
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [details, setDetails] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Vps | null>(null);
  const list = query.data?.vpsList ?? [];

  const idLink = (v: Vps) => (
    <Link
      component="button"
      type="button"
      onClick={() => setDetails(v.id)}
      aria-label={`Details of VPS ${v.name}`}
      sx={{ wordBreak: 'break-all', textAlign: 'left' }}
    >
      {v.id}
    </Link>
  );

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Box>
          <Typography variant="h1">Connected VPS</Typography>
          <Typography color="text.secondary">Pipeline nodes that run conversations, with their live status.</Typography>
        </Box>
        <RefreshButton onClick={refresh} busy={query.isFetching} label="Refresh VPS list" />
      </Box>
      <MailStatusAlert />
      {(disk === 'low' || disk === 'full') && (
        <Alert severity={disk === 'full' ? 'error' : 'warning'} sx={{ mb: 2 }}>
          {DISK_STATE_MESSAGES[disk]}
        </Alert>
      )}
      {query.isPending && <PageLoading label="Fetching connected VPS..." />}
      {query.isError && <Alert severity="error">{SCREEN_MESSAGES.vpsListFailed}</Alert>}
      {query.isSuccess && list.length === 0 && <Typography color="text.secondary">No VPS is connected.</Typography>}
      {query.isSuccess && list.length > 0 && !mobile && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Connected VPS">
            <TableHead>
              <TableRow>
                <TableCell>ID</TableCell>
                <TableCell>Name</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Delete</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((v) => (
                <TableRow key={v.id} hover>
                  <TableCell>{idLink(v)}</TableCell>
                  <TableCell>{v.name}</TableCell>
                  <TableCell>
                    <VpsStatusChip status={v.status} />
                  </TableCell>
                  <TableCell align="right">
                    <DeleteButton vps={v} onClick={() => setDeleting(v)} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {query.isSuccess && list.length > 0 && mobile && (
        <Stack spacing={1.5} aria-label="Connected VPS">
          {list.map((v) => (
            <Card key={v.id} variant="outlined">
              <CardContent sx={{ pb: 0 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                  <Typography variant="h3">{v.name}</Typography>
                  <VpsStatusChip status={v.status} />
                </Box>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  ID
                </Typography>
                {idLink(v)}
              </CardContent>
              <CardActions sx={{ justifyContent: 'flex-end' }}>
                <DeleteButton vps={v} onClick={() => setDeleting(v)} />
              </CardActions>
            </Card>
          ))}
        </Stack>
      )}
      <VpsDetailsDialog vpsId={details} onClose={() => setDetails(null)} />
      <ConfirmDialog
        open={!!deleting}
        title="Delete VPS"
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id);
          return SCREEN_MESSAGES.deleted;
        }}
        onClose={() => setDeleting(null)}
        errorTitle={SCREEN_MESSAGES.deleteVpsFailed}
        closeAfterSuccessMs={VPS_DELETE_CLOSE_MS}
      >
        {`Delete ${deleting?.name ?? 'this VPS'}? It is disconnected and the conversations it runs end.`}
      </ConfirmDialog>
    </Container>
  );
}
