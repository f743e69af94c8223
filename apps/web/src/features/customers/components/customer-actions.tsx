// What an administrator can do to one customer: decide a requested plan, suspend or reactivate,
// and sign in as them in a new tab (the Foundation's admin-proxy sign-in).
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { CustomerRow } from '@parla/shared/schemas/admin';

export type CustomerAction = 'approve' | 'decline' | 'suspend' | 'reactivate';

export function CustomerActions({
  customer,
  onAction,
  onSignInAs,
}: {
  customer: CustomerRow;
  onAction: (a: CustomerAction) => void;
  onSignInAs: () => void;
}) {
  const who = customer.name || customer.email;
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
      {customer.requestedSubType !== null && (
        <>
          <Button size="small" variant="contained" onClick={() => onAction('approve')} aria-label={`Approve plan change of ${who}`}>
            Approve
          </Button>
          <Button size="small" variant="outlined" onClick={() => onAction('decline')} aria-label={`Decline plan change of ${who}`}>
            Decline
          </Button>
        </>
      )}
      {customer.status === 'ACTIVE' ? (
        <Button size="small" color="error" onClick={() => onAction('suspend')} aria-label={`Suspend ${who}`}>
          Suspend
        </Button>
      ) : (
        <Button size="small" color="success" onClick={() => onAction('reactivate')} aria-label={`Reactivate ${who}`}>
          Reactivate
        </Button>
      )}
      <Button size="small" onClick={onSignInAs} disabled={customer.status !== 'ACTIVE'} aria-label={`Sign in as ${who}`}>
        Sign in as
      </Button>
    </Stack>
  );
}
