// Email verification (spec 4 §2): the server's message, a green check for OK, a red cross
// otherwise, and a way back to sign in. Before it, the mailbox owner types the password she
// registered with: the link proves the mailbox, the password says which registration of the
// address is hers (decision 011). A wrong password keeps the form open.
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useParams } from 'react-router';
import { emailVerificationForm, type EmailVerificationForm } from '@parla/shared/schemas/auth';
import { AuthCard } from '../../../components/auth-card';
import { FormTextField } from '../../../components/form/form-text-field';
import { paths } from '../../../config/paths';
import { useVerifyEmail, type VerifyEmailResult } from '../../../features/auth/api/verify-email';

function BackToSignIn() {
  return (
    <Box sx={{ mt: 3 }}>
      <Link component={RouterLink} to={paths.login}>
        Back to sign in
      </Link>
    </Box>
  );
}

function Outcome({ result }: { result: VerifyEmailResult }) {
  const ok = result.status === 'OK';
  return (
    <AuthCard title={result.displayTitle || 'Email verification'}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        {ok ? (
          <CheckCircleIcon color="success" sx={{ fontSize: 48 }} titleAccess="Verified" />
        ) : (
          <CancelIcon color="error" sx={{ fontSize: 48 }} titleAccess="Not verified" />
        )}
        <Typography sx={{ pt: 1 }}>{result.displayMessage}</Typography>
      </Box>
      <BackToSignIn />
    </AuthCard>
  );
}

export default function EmailVerificationRoute() {
  const { code = '' } = useParams();
  const verify = useVerifyEmail(code);
  const { control, handleSubmit } = useForm<EmailVerificationForm>({
    resolver: zodResolver(emailVerificationForm),
    defaultValues: { password: '' },
    reValidateMode: 'onChange',
  });
  const result = verify.data;
  if (result && result.failReason !== 'WRONG_PASSWORD') return <Outcome result={result} />;

  return (
    <AuthCard title="Email verification" subtitle="Enter the password you chose when you registered to verify your email address.">
      <Box component="form" noValidate aria-label="Verify email" onSubmit={handleSubmit((v) => verify.mutate(v.password))}>
        <FormTextField
          control={control}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          autoFocus
          required
        />
        {result && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {result.displayMessage}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={verify.isPending}>
          {verify.isPending ? <CircularProgress size={24} color="inherit" aria-label="Verifying" /> : 'Verify Email'}
        </Button>
      </Box>
      <BackToSignIn />
    </AuthCard>
  );
}
