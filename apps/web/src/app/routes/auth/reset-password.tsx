// Reset password (spec 1 §2, §4, §5): check the code ('Just one second...'), then the form,
// or 'Invalid Code' with 'Send Email Again' and 'Back to Sign In'; success says so and links
// to sign-in.
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useParams } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@parla/shared/limits';
import { resetPasswordForm } from '@parla/shared/schemas/auth';
import { AuthCard } from '../../../components/auth-card';
import { ErrorAlert } from '../../../components/error-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { useResetPassword, useValidateResetToken } from '../../../features/auth/api/reset-password';

function InvalidCode({ message }: { message: string }) {
  return (
    <AuthCard title="Invalid Code">
      <Alert severity="error">{message}</Alert>
      <Box sx={{ mt: 3, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Button variant="contained" component={RouterLink} to={paths.forgotPassword}>
          Send Email Again
        </Button>
        <Link component={RouterLink} to={paths.login}>
          Back to Sign In
        </Link>
      </Box>
    </AuthCard>
  );
}

export default function ResetPasswordRoute() {
  const { code = '' } = useParams();
  const trimmed = code.trim();
  const check = useValidateResetToken(trimmed);
  const reset = useResetPassword(trimmed);
  const { control, handleSubmit } = useForm<{ newPassword: string }>({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { newPassword: '' },
    reValidateMode: 'onChange',
  });

  if (!trimmed) return <InvalidCode message="Empty Reset Code" />;
  if (check.isPending) {
    return (
      <AuthCard title="Reset password">
        <PageLoading label="Just one second... Checking password reset token validity" />
      </AuthCard>
    );
  }
  if (check.isError) return <InvalidCode message="This password reset link is invalid, already used or expired." />;

  if (reset.isSuccess) {
    return (
      <AuthCard title="Password reset">
        <Alert severity="success">Password has been reset for {check.data.email} successfully. Proceed with Login.</Alert>
        <Button variant="contained" component={RouterLink} to={paths.login} sx={{ mt: 3 }}>
          Sign In
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle={`For ${check.data.email}`}>
      <Box component="form" noValidate aria-label="Reset password" onSubmit={handleSubmit((v) => reset.mutate(v.newPassword))}>
        <FormTextField
          control={control}
          name="newPassword"
          label="New Password"
          type="password"
          autoComplete="new-password"
          autoFocus
          required
          helperText={`At least ${PASSWORD_MIN_LENGTH} characters`}
        />
        {reset.isError && <ErrorAlert title="Password reset failed" error={reset.error} />}
        <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={reset.isPending}>
          {reset.isPending ? <CircularProgress size={24} color="inherit" aria-label="Resetting" /> : 'Reset Password'}
        </Button>
        <Typography variant="body2" align="center" sx={{ mt: 2 }}>
          <Link component={RouterLink} to={paths.login}>
            Back to Sign In
          </Link>
        </Typography>
      </Box>
    </AuthCard>
  );
}
