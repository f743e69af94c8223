// The plan's avatar limit, said before the customer chooses and names an avatar (issue 39), with
// the way to lift it: the account page, where the subscription is changed.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { planFullText, type PlanFull } from '../lib/plan-room';

export function PlanFullNotice({ full, sx }: { full: PlanFull; sx?: SxProps<Theme> }) {
  return (
    <Alert
      severity="warning"
      sx={sx}
      action={
        <Button color="inherit" size="small" component={RouterLink} to={paths.account}>
          Upgrade
        </Button>
      }
    >
      {planFullText(full)}
    </Alert>
  );
}
