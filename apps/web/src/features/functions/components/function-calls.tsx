// A function's live calls (issue 39 item 7): time, avatar, duration, result or error, newest
// first, a page at a time. The arguments are never stored, so never shown.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useFunctionCalls } from '../api/try-function';

export function FunctionCalls({ id }: { id: string }) {
  const calls = useFunctionCalls(id);
  const rows = calls.data ?? [];
  return (
    <Box component="section" aria-labelledby="calls-title" sx={{ mt: 3 }}>
      <Typography id="calls-title" variant="h3" component="h2">
        Calls
      </Typography>
      {calls.isSuccess && rows.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          No avatar has called this function yet.
        </Typography>
      )}
      {rows.length > 0 && (
        <Box sx={{ overflowX: 'auto', mt: 1 }}>
          <Table size="small" aria-label="Calls">
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Avatar</TableCell>
                <TableCell>Duration</TableCell>
                <TableCell>Outcome</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((c, i) => (
                <TableRow key={`${c.at}-${i}`}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(c.at).toLocaleString()}</TableCell>
                  <TableCell>{c.avatarName ?? (c.avatarId ? 'Deleted avatar' : '—')}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{c.durationMs} ms</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word', fontFamily: 'monospace', fontSize: 13 }}>
                    <Typography
                      component="span"
                      variant="body2"
                      color={c.ok ? 'success.main' : 'error.main'}
                      sx={{ fontWeight: 600, mr: 1 }}
                    >
                      {c.ok ? 'OK' : 'Error'}
                    </Typography>
                    {c.excerpt}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {calls.hasNextPage && (
        <Button sx={{ mt: 1 }} onClick={() => void calls.fetchNextPage()} disabled={calls.isFetchingNextPage}>
          Show more calls
        </Button>
      )}
    </Box>
  );
}
