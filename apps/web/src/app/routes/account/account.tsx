// Account (spec 1 §2), both roles: 'Account Details' on the left, the Billing Report in the
// middle, the information panel on the right (below 1280 px it moves under the details; on a
// phone it is there only while a field's information is shown, never as an empty box, issue 17).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { planName } from '@parla/shared/plans';
import { InfoPanel, InfoPanelProvider, useInfoShown } from '../../../components/info-panel';
import { paths } from '../../../config/paths';
import { useAccountInfo } from '../../../features/account/api/get-account-info';
import { AccountDetailsPanel } from '../../../features/account/components/account-details-panel';
import { DownloadMyData } from '../../../features/account/components/download-my-data';
import { BillingReport } from '../../../features/billing/components/billing-report';
import { SubscriptionDialog } from '../../../features/subscription/components/subscription-dialog';

function DetailsPane({ onChangeSubscription }: { onChangeSubscription: () => void }) {
  const info = useAccountInfo();
  if (info.isPending) {
    return (
      <Paper variant="outlined" sx={{ p: 2 }} aria-busy="true" aria-label="Loading account details">
        <Skeleton width="60%" height={32} />
        {Array.from({ length: 7 }, (_, i) => (
          <Skeleton key={i} height={44} />
        ))}
      </Paper>
    );
  }
  if (info.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void info.refetch()}>
            Retry
          </Button>
        }
      >
        {SCREEN_MESSAGES.accountDetailsFailed}
      </Alert>
    );
  }
  const details = info.data.accountDetails;
  return (
    <AccountDetailsPanel
      details={details}
      onChangeSubscription={onChangeSubscription}
      extra={
        <>
          {details.userType === 'CUSTOMER' && (
            <Typography variant="body2" sx={{ mt: 2, px: 1 }}>
              Sign-in for your avatars&apos; users:{' '}
              <Link component={RouterLink} to={paths.oauthConfigs}>
                OAuth Configs
              </Link>
            </Typography>
          )}
          <DownloadMyData />
        </>
      }
    />
  );
}

function Panes({ onChangeSubscription }: { onChangeSubscription: () => void }) {
  const shown = useInfoShown();
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        p: { xs: 1.5, sm: 3 },
        alignItems: 'start',
        gridTemplateColumns: { xs: '1fr', md: '300px minmax(0, 1fr)', lg: '300px minmax(0, 1fr) 300px' },
        gridTemplateAreas: {
          xs: shown ? '"details" "info" "billing"' : '"details" "billing"',
          md: '"details billing" "info billing"',
          lg: '"details billing info"',
        },
      }}
    >
      <Box sx={{ gridArea: 'details' }}>
        <DetailsPane onChangeSubscription={onChangeSubscription} />
      </Box>
      <Box sx={{ gridArea: 'billing', minWidth: 0 }}>
        <BillingReport />
      </Box>
      <Box sx={{ gridArea: 'info', position: { lg: 'sticky' }, top: { lg: 88 }, display: { xs: shown ? 'block' : 'none', md: 'block' } }}>
        <InfoPanel />
      </Box>
    </Box>
  );
}

export default function AccountRoute() {
  const info = useAccountInfo();
  const [changing, setChanging] = useState(false);
  const details = info.data?.accountDetails;
  return (
    <InfoPanelProvider>
      <Panes onChangeSubscription={() => setChanging(true)} />
      {details && (
        <SubscriptionDialog
          open={changing}
          onClose={() => setChanging(false)}
          currentPlan={planName(details.licenses.webgl.subscriptionType)}
          requestedPlan={details.requestedSubType !== null ? planName(details.requestedSubType) : null}
        />
      )}
    </InfoPanelProvider>
  );
}
