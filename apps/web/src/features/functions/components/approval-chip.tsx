// The approval status chip (spec 4 §4): Approved in the primary colour, Pending neutral,
// Rejected in the error colour.
import Chip from '@mui/material/Chip';
import type { FunctionStatus } from '@parla/shared/schemas/functions';

const LABELS: Record<FunctionStatus, { label: string; color: 'primary' | 'default' | 'error' }> = {
  Approved: { label: 'Approved', color: 'primary' },
  Pending: { label: 'Pending', color: 'default' },
  Rejected: { label: 'Rejected', color: 'error' },
};

export function ApprovalChip({ status }: { status: FunctionStatus }) {
  const l = LABELS[status] ?? { label: status, color: 'default' as const };
  return <Chip size="small" label={l.label} color={l.color} variant={status === 'Pending' ? 'outlined' : 'filled'} />;
}
