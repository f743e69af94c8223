import Chip from '@mui/material/Chip';

/** Spec 1 §2, §4: only AVAILABLE is good (green); anything else is red. */
export function VpsStatusChip({ status }: { status: string }) {
  const good = status === 'AVAILABLE';
  return (
    <Chip size="small" label={status} color={good ? 'success' : 'error'} variant={good ? 'filled' : 'outlined'} sx={{ fontWeight: 700 }} />
  );
}
