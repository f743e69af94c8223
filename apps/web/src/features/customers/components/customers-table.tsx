// The customers desk: accounts with their status, plan and requested plan; the actions of each.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { LoadMore } from '../../../components/load-more';
import dayjs from 'dayjs';
import { useSnackbar } from 'notistack';
import { TOAST_ERROR_MS } from '@parla/shared/limits';
import { planName } from '@parla/shared/plans';
import type { CustomerRow } from '@parla/shared/schemas/admin';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorLines } from '../../../lib/api-client';
import { useDecideSubscription } from '../api/decide-subscription';
import { useCustomers } from '../api/get-customers';
import { impersonateCustomer } from '../api/impersonate-customer';
import { useSetCustomerStatus } from '../api/set-customer-status';
import { CustomerActions, type CustomerAction } from './customer-actions';

const FAILED_TO_FETCH = 'Failed to fetch customers.';

function confirmText(action: CustomerAction, c: CustomerRow) {
  const who = c.name || c.email;
  const from = planName(c.subscriptionType);
  const to = c.requestedSubType !== null ? planName(c.requestedSubType) : '';
  switch (action) {
    case 'approve':
      return {
        title: 'Approve plan change',
        body: `Change the plan of ${who} from ${from} to ${to}? They receive an email.`,
        label: 'Approve',
        done: `${who} is now on the ${to} plan.`,
        failed: 'Plan change failed',
      };
    case 'decline':
      return {
        title: 'Decline plan change',
        body: `Decline the request of ${who} to change from ${from} to ${to}? Their plan stays ${from} and they receive an email.`,
        label: 'Decline',
        done: 'Request declined.',
        failed: 'Decline failed',
      };
    case 'suspend':
      return {
        title: 'Suspend account',
        body: `Suspend ${who}? They are signed out at once and cannot sign in until the account is reactivated.`,
        label: 'Suspend',
        done: `${who} is suspended.`,
        failed: 'Suspend failed',
      };
    case 'reactivate':
      return {
        title: 'Reactivate account',
        body: `Reactivate ${who}? They can sign in again.`,
        label: 'Reactivate',
        done: `${who} is active again.`,
        failed: 'Reactivate failed',
      };
  }
}

export function CustomersTable() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const t = window.setTimeout(() => setQuery(search), 300);
    return () => window.clearTimeout(t);
  }, [search]);
  const customers = useCustomers(query);
  const decide = useDecideSubscription();
  const setStatus = useSetCustomerStatus();
  const { enqueueSnackbar } = useSnackbar();
  // The last chosen action stays as the dialog's content while it closes.
  const [pending, setPending] = useState<{ action: CustomerAction; customer: CustomerRow } | null>(null);
  const [open, setOpen] = useState(false);

  const run = async () => {
    if (!pending) return;
    const { action, customer } = pending;
    if (action === 'approve' || action === 'decline') await decide.mutateAsync({ userId: customer.id, approve: action === 'approve' });
    else await setStatus.mutateAsync({ userId: customer.id, status: action === 'suspend' ? 'SUSPENDED' : 'ACTIVE' });
  };

  const signInAs = async (c: CustomerRow) => {
    // Open the tab during the click (popup blockers allow that), then point it at the code.
    const tab = window.open('', '_blank');
    try {
      const { adminSessionId, email } = await impersonateCustomer(c.id);
      const url = `/react/login?adminSessionId=${encodeURIComponent(adminSessionId)}&email=${encodeURIComponent(email)}`;
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else window.open(url, '_blank', 'noopener');
    } catch (err) {
      tab?.close();
      enqueueSnackbar(errorLines(err).join(' '), { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
    }
  };

  const text = pending ? confirmText(pending.action, pending.customer) : null;
  const rows = customers.data ?? [];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <TextField
        label="Search by name or email"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        margin="none"
        size="small"
        sx={{ maxWidth: 360 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
          htmlInput: { maxLength: 100 },
        }}
      />
      <Box sx={{ height: 4, mt: 1.5 }}>{customers.isFetching && <LinearProgress aria-label="Loading customers" />}</Box>
      {customers.isError && (
        <Alert
          severity="error"
          sx={{ mt: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void customers.refetch()}>
              Retry
            </Button>
          }
        >
          {FAILED_TO_FETCH}
        </Alert>
      )}
      {customers.data && (
        <TableContainer>
          <Table size="small" aria-label="Customers">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Plan</TableCell>
                <TableCell>Requested plan</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7} sx={{ textAlign: 'center', py: 3, color: 'text.secondary' }}>
                    {query.trim() ? 'No customer matches this search.' : 'No customers yet.'}
                  </TableCell>
                </TableRow>
              )}
              {rows.map((c) => (
                <TableRow key={c.id} hover>
                  <TableCell>{c.name}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    {c.email}
                    {!c.emailVerified && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        not verified
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Chip size="small" variant="outlined" label={c.status} color={c.status === 'ACTIVE' ? 'success' : 'error'} />
                  </TableCell>
                  <TableCell>{planName(c.subscriptionType)}</TableCell>
                  <TableCell>
                    {c.requestedSubType !== null ? (
                      <>
                        <Chip size="small" color="warning" label={planName(c.requestedSubType)} />
                        {c.requestedAt && (
                          <Typography variant="caption" color="text.secondary" component="div">
                            {dayjs(c.requestedAt).format('D MMM YYYY HH:mm')}
                          </Typography>
                        )}
                      </>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{dayjs(c.created).format('D MMM YYYY')}</TableCell>
                  <TableCell sx={{ minWidth: 260 }}>
                    <CustomerActions
                      customer={c}
                      onAction={(action) => {
                        setPending({ action, customer: c });
                        setOpen(true);
                      }}
                      onSignInAs={() => void signInAs(c)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <LoadMore
        shown={rows.length}
        noun="customers"
        hasMore={customers.hasNextPage}
        loading={customers.isFetchingNextPage}
        onMore={() => void customers.fetchNextPage()}
      />
      <ConfirmDialog
        open={open}
        title={text?.title ?? ''}
        confirmLabel={text?.label}
        confirmColor={pending?.action === 'suspend' || pending?.action === 'decline' ? 'error' : 'primary'}
        successMessage={text?.done}
        errorTitle={text?.failed}
        closeAfterSuccessMs={1500}
        onConfirm={run}
        onClose={() => setOpen(false)}
      >
        {text?.body ?? ''}
      </ConfirmDialog>
    </Paper>
  );
}
