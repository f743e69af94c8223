// Email verification (spec 4 §2): the server's message, a green check for OK, a red cross
// otherwise, and a way back to sign in.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Link as RouterLink, useParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { useVerifyEmail } from '../../../features/auth/api/verify-email';

export default function EmailVerificationRoute() {
  const { code = '' } = useParams();
  const result = useVerifyEmail(code);
  if (!result.data) {
    return (
      <AuthCard title="Email verification">
        <PageLoading label="Verifying your email address..." />
      </AuthCard>
    );
  }
  const ok = result.data.status === 'OK';
  return (
    <AuthCard title={result.data.displayTitle || 'Email verification'}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        {ok ? (
          <CheckCircleIcon color="success" sx={{ fontSize: 48 }} titleAccess="Verified" />
        ) : (
          <CancelIcon color="error" sx={{ fontSize: 48 }} titleAccess="Not verified" />
        )}
        <Typography sx={{ pt: 1 }}>{result.data.displayMessage}</Typography>
      </Box>
      <Box sx={{ mt: 3 }}>
        <Link component={RouterLink} to={paths.login}>
          Back to sign in
        </Link>
      </Box>
    </AuthCard>
  );
}
