// Response times per avatar (beyond the spec: no comparable product shows them): p50 and p95 of
// the time to the first words of a reply, the brain's whole answer time and the knowledge
// retrieval time, over the last 30 days.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMyLatency } from '../api/get-my-latency';
import { RefreshButton } from '../../../components/refresh-button';

const ms = (v: number | null) => (v === null ? '—' : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);

export function LatencyTable() {
  const query = useMyLatency();
  const rows = query.data?.avatars ?? [];
  return (
    <Box component="section" aria-labelledby="latency-title" sx={{ mt: 5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Box>
          <Typography id="latency-title" variant="h2">
            Response times
          </Typography>
          <Typography color="text.secondary">Per avatar over the last 30 days: median (p50) and slowest 5% (p95).</Typography>
        </Box>
        <RefreshButton onClick={() => void query.refetch()} busy={query.isFetching} label="Refresh response times" />
      </Box>
      {query.isError && <Alert severity="error">Failed to fetch response times.</Alert>}
      {query.isSuccess && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Response times" size="small">
            <TableHead>
              <TableRow>
                <TableCell>Avatar</TableCell>
                <TableCell align="right">Turns</TableCell>
                <TableCell align="right">First words p50 / p95</TableCell>
                <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                  Whole answer p50 / p95
                </TableCell>
                <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                  Knowledge p50 / p95
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5}>
                    <Typography color="text.secondary" sx={{ py: 1, textAlign: 'center' }}>
                      No conversations in the last 30 days.
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {rows.map((r) => (
                <TableRow key={r.avatarId}>
                  <TableCell>{r.avatarName}</TableCell>
                  <TableCell align="right">{r.latency.turns}</TableCell>
                  <TableCell align="right">{`${ms(r.latency.firstDelta.p50)} / ${ms(r.latency.firstDelta.p95)}`}</TableCell>
                  <TableCell
                    align="right"
                    sx={{ display: { xs: 'none', sm: 'table-cell' } }}
                  >{`${ms(r.latency.engine.p50)} / ${ms(r.latency.engine.p95)}`}</TableCell>
                  <TableCell
                    align="right"
                    sx={{ display: { xs: 'none', sm: 'table-cell' } }}
                  >{`${ms(r.latency.retrieval.p50)} / ${ms(r.latency.retrieval.p95)}`}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
