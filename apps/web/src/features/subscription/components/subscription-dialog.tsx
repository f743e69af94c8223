// Change Subscription (spec 1 §2, §4): plans in display order with prices, 'See plans here',
// Request Upgrade / Request Downgrade. The button is disabled while the selection is the current
// plan, while a request is being sent, and when a request is already pending (then the radios
// are locked and the requested plan is marked '(REQUESTED)'). A pending request can be cancelled
// (issue 17); the administrators are told by mail.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@parla/shared/limits';
import { isUpgrade, PLAN_DISPLAY_ORDER, PLAN_LIMITS, PLAN_PRICES, SubscriptionType, type PlanName } from '@parla/shared/plans';
import { errorLines } from '../../../lib/api-client';
import { useCancelPlanRequest } from '../api/cancel-plan-request';
import { useRequestPlanChange } from '../api/request-plan-change';

export interface SubscriptionDialogProps {
  open: boolean;
  onClose: () => void;
  currentPlan: PlanName;
  requestedPlan: PlanName | null;
}

const limit = (n: number | null) => (n === null ? 'Unlimited' : String(n));

function PlansTable() {
  return (
    <Table size="small" aria-label="Plans">
      <TableHead>
        <TableRow>
          <TableCell>Plan</TableCell>
          <TableCell>Price</TableCell>
          <TableCell align="right">Avatars</TableCell>
          <TableCell align="right">Minutes per month</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {PLAN_DISPLAY_ORDER.map((p) => (
          <TableRow key={p}>
            <TableCell>{p}</TableCell>
            <TableCell>{PLAN_PRICES[p]}</TableCell>
            <TableCell align="right">{limit(PLAN_LIMITS[p].avatars)}</TableCell>
            <TableCell align="right">{limit(PLAN_LIMITS[p].minutesPerMonth)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function RequestSentDialog({ open, plan, onClose }: { open: boolean; plan: PlanName | null; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="request-sent-title">
      <DialogTitle id="request-sent-title">Request Sent</DialogTitle>
      <DialogContent>
        <DialogContentText>
          Your request to change to the {plan} plan has been sent. The administrator has been notified and will email you to confirm.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function SubscriptionDialog({ open, onClose, currentPlan, requestedPlan }: SubscriptionDialogProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [selected, setSelected] = useState<PlanName>(requestedPlan ?? currentPlan);
  const [showPlans, setShowPlans] = useState(false);
  const [sent, setSent] = useState<PlanName | null>(null);
  const request = useRequestPlanChange();
  const cancel = useCancelPlanRequest();
  const locked = requestedPlan !== null;
  const busy = request.isPending || cancel.isPending;

  const withdraw = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        enqueueSnackbar(`Your request for the ${requestedPlan} plan has been cancelled.`, {
          variant: 'success',
          autoHideDuration: TOAST_SUCCESS_MS,
        });
        onClose();
      },
      onError: (err) => enqueueSnackbar(errorLines(err).join(' '), { variant: 'error', autoHideDuration: TOAST_ERROR_MS }),
    });
  const choice = locked ? requestedPlan : selected;

  const submit = () =>
    request.mutate(
      { subType: SubscriptionType[choice] },
      {
        onSuccess: () => {
          onClose();
          setSent(choice);
        },
        onError: () => {
          enqueueSnackbar(SCREEN_MESSAGES.subscriptionFailed, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
          onClose();
        },
      },
    );

  const disabled = choice === currentPlan || request.isPending || locked;
  // On the current plan there is no direction yet: say Upgrade, except on the highest plan.
  const upgrade = choice === currentPlan ? currentPlan !== PLAN_DISPLAY_ORDER.at(-1) : isUpgrade(currentPlan, choice);
  return (
    <>
      <Dialog
        open={open}
        onClose={busy ? undefined : onClose}
        maxWidth="sm"
        fullWidth
        aria-labelledby="subscription-title"
        slotProps={{ transition: { onEnter: () => setSelected(requestedPlan ?? currentPlan) } }}
      >
        <DialogTitle id="subscription-title">Change Subscription</DialogTitle>
        <DialogContent>
          {locked && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Your request for the {requestedPlan} plan is waiting for an administrator. You will receive an email when it is decided, or
              you can cancel it.
            </Typography>
          )}
          <RadioGroup aria-label="Subscription plan" value={choice} onChange={(e) => setSelected(e.target.value as PlanName)}>
            {PLAN_DISPLAY_ORDER.map((p) => (
              <FormControlLabel
                key={p}
                value={p}
                disabled={locked}
                control={<Radio />}
                label={
                  <Box component="span">
                    <strong>{p}</strong> — {PLAN_PRICES[p]}
                    {p === currentPlan && (
                      <Typography component="span" variant="body2" color="text.secondary">
                        {' '}
                        (CURRENT)
                      </Typography>
                    )}
                    {p === requestedPlan && (
                      <Typography component="span" variant="body2" color="warning.main">
                        {' '}
                        (REQUESTED)
                      </Typography>
                    )}
                  </Box>
                }
              />
            ))}
          </RadioGroup>
          <Link
            component="button"
            type="button"
            variant="body2"
            onClick={() => setShowPlans((s) => !s)}
            sx={{ mt: 1 }}
            aria-expanded={showPlans}
          >
            See plans here
          </Link>
          <Collapse in={showPlans}>
            <Box sx={{ mt: 1 }}>
              <PlansTable />
            </Box>
          </Collapse>
        </DialogContent>
        <DialogActions>
          {locked && (
            <Button color="error" onClick={withdraw} disabled={busy} sx={{ mr: 'auto' }}>
              {cancel.isPending ? <CircularProgress size={22} color="inherit" aria-label="Cancelling request" /> : 'Cancel request'}
            </Button>
          )}
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="contained" onClick={submit} disabled={disabled}>
            {request.isPending ? (
              <CircularProgress size={22} color="inherit" aria-label="Sending request" />
            ) : upgrade ? (
              'Request Upgrade'
            ) : (
              'Request Downgrade'
            )}
          </Button>
        </DialogActions>
      </Dialog>
      <RequestSentDialog open={sent !== null} plan={sent} onClose={() => setSent(null)} />
    </>
  );
}
