// A record's details in a dialog with refresh (spec 1 §2: User Details, VPS Details; §4: load,
// then a table or the screen's error message).
import type { ReactNode } from 'react';
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
import { RefreshButton } from './refresh-button';

export interface DetailsQuery {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface DetailsDialogProps {
  open: boolean;
  /** The dialog's title, e.g. 'User Details'. */
  title: string;
  /** What the record is, as the labels say it: 'user' → 'Refresh user details', 'User details'. */
  subject: string;
  query: DetailsQuery;
  errorMessage: string;
  /** The rows once loaded (label and shown value), or null while there is no record. */
  rows: { label: string; value: ReactNode }[] | null;
  onClose: () => void;
}

/** A value as a cell shows it: an em dash when empty. */
export const shown = (v: unknown): string => String(v ?? '') || '—';

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function DetailsDialog({ open, title, subject, query, errorMessage, rows, onClose }: DetailsDialogProps) {
  const id = `${title.toLowerCase().replace(/\W+/g, '-')}-title`;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={id}>
      <DialogTitle id={id} sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        {title}
        <RefreshButton onClick={() => void query.refetch()} busy={query.isFetching} label={`Refresh ${subject} details`} />
      </DialogTitle>
      <DialogContent dividers>
        {query.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={`Loading ${subject} details`} />
          </Box>
        )}
        {query.isError && <Alert severity="error">{errorMessage}</Alert>}
        {rows && (
          <Table size="small" aria-label={`${subject[0]!.toUpperCase()}${subject.slice(1)} details`}>
            <TableBody>
              {rows.map(({ label, value }) => (
                <TableRow key={label}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600, width: '40%' }}>
                    {label}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{value}</TableCell>
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
