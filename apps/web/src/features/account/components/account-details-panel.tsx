// The left pane of the Account screen (spec 1 §2): 'Account Details' with each field opening
// its explanation in the information panel, and the Change Subscription button (customers only:
// an administrator has no plan to change, issue 17). The Customer ID breaks only after a hyphen.
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { planName } from '@parla/shared/plans';
import type { AccountDetails } from '@parla/shared/schemas/account';
import { useFieldInfo, type FieldInfo } from '../../../components/info-panel';
import { ACCOUNT_FIELD_INFO } from './account-field-info';

function Field({ label, info, children, valueTestId }: { label: string; info: FieldInfo; children: ReactNode; valueTestId?: string }) {
  const handlers = useFieldInfo(info);
  return (
    <ButtonBase
      {...handlers}
      aria-label={`${label}: show information`}
      sx={{
        display: 'block',
        width: '100%',
        textAlign: 'left',
        borderRadius: 1,
        px: 1,
        py: 0.75,
        '&:hover, &.Mui-focusVisible': { bgcolor: 'action.hover' },
      }}
    >
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {/* Break between words (an id's hyphens) first, inside one only when it cannot fit. */}
      <Box data-testid={valueTestId} sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </ButtonBase>
  );
}

function Meter({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  const ratio = limit === null ? 0 : limit === 0 ? 1 : Math.min(1, used / limit);
  return (
    <Box sx={{ mt: 0.5 }}>
      <Typography variant="body2">
        {label}: {used} {limit === null ? '(unlimited)' : `of ${limit}`}
      </Typography>
      {limit !== null && (
        <LinearProgress
          variant="determinate"
          value={ratio * 100}
          color={ratio >= 1 ? 'error' : ratio >= 0.8 ? 'warning' : 'primary'}
          aria-label={`${label} used`}
          sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
        />
      )}
    </Box>
  );
}

export const formatDate = (iso: string) => dayjs(iso).format('D MMM YYYY');

export function AccountDetailsPanel({
  details,
  onChangeSubscription,
  extra,
}: {
  details: AccountDetails;
  onChangeSubscription: () => void;
  extra?: ReactNode;
}) {
  const plan = planName(details.licenses.webgl.subscriptionType);
  const requested = details.requestedSubType !== null ? planName(details.requestedSubType) : null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="account-details-title" sx={{ p: 2 }}>
      <Typography id="account-details-title" variant="h3" component="h2" sx={{ px: 1, mb: 1 }}>
        Account Details
      </Typography>
      <Field label="Customer ID" info={ACCOUNT_FIELD_INFO.customerId} valueTestId="customer-id">
        {details.Id}
      </Field>
      <Field label="Name" info={ACCOUNT_FIELD_INFO.name}>
        {details.Name}
      </Field>
      <Field label="Email" info={ACCOUNT_FIELD_INFO.email}>
        {details.Email}
      </Field>
      <Field label="Status" info={ACCOUNT_FIELD_INFO.status}>
        <Chip size="small" label={details.Status} color={details.Status === 'ACTIVE' ? 'success' : 'error'} variant="outlined" />
      </Field>
      <Field label="Created" info={ACCOUNT_FIELD_INFO.created}>
        {formatDate(details['Create Date'])}
      </Field>
      <Field label="Subscription plan" info={ACCOUNT_FIELD_INFO.plan}>
        <span data-testid="current-plan">{plan}</span>
        {requested && (
          <Typography component="span" variant="body2" color="warning.main" sx={{ ml: 1 }}>
            {requested} (REQUESTED)
          </Typography>
        )}
      </Field>
      <Field label="Subscribed since" info={ACCOUNT_FIELD_INFO.subscribedSince}>
        {formatDate(details.subscribedSince)}
      </Field>
      <Field label="Usage this month" info={ACCOUNT_FIELD_INFO.usage}>
        <Meter label="Avatars" used={details.usage.avatars.used} limit={details.usage.avatars.limit} />
        <Meter label="Minutes" used={details.usage.minutes.used} limit={details.usage.minutes.limit} />
      </Field>
      {details.userType !== 'ADMIN' && (
        <>
          <Divider sx={{ my: 1.5 }} />
          <Button variant="contained" fullWidth onClick={onChangeSubscription}>
            Change Subscription
          </Button>
        </>
      )}
      {extra}
    </Paper>
  );
}
