// Forgot password (spec 4 §2): Email and 'Send Email to Reset', then 'Email sent'.
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { forgotPasswordRequest, type ForgotPasswordRequest } from '@parla/shared/schemas/auth';
import { AuthCard } from '../../../components/auth-card';
import { ErrorAlert } from '../../../components/error-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { paths } from '../../../config/paths';
import { useForgotPassword } from '../../../features/auth/api/forgot-password';

export default function ForgotPasswordRoute() {
  const forgot = useForgotPassword();
  const { control, handleSubmit, getValues } = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(forgotPasswordRequest),
    defaultValues: { email: '' },
    reValidateMode: 'onChange',
  });

  if (forgot.isSuccess) {
    return (
      <AuthCard title="Email sent">
        <Typography>
          If an account exists for <strong>{getValues('email')}</strong>, we have sent instructions to reset its password. The link works
          once, for one hour.
        </Typography>
        <Box sx={{ mt: 3 }}>
          <Link component={RouterLink} to={paths.login}>
            Back to sign in
          </Link>
        </Box>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="Enter your email and we will send you a link to choose a new one.">
      <Box component="form" noValidate aria-label="Forgot password" onSubmit={handleSubmit((v) => forgot.mutate(v.email))}>
        <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" required autoFocus />
        {forgot.isError && <ErrorAlert title="Mail Delivery Failed" error={forgot.error} />}
        <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={forgot.isPending}>
          {forgot.isPending ? <CircularProgress size={24} color="inherit" aria-label="Sending" /> : 'Send Email to Reset'}
        </Button>
        <Typography variant="body2" align="center" sx={{ mt: 2 }}>
          <Link component={RouterLink} to={paths.login}>
            Back to sign in
          </Link>
        </Typography>
      </Box>
    </AuthCard>
  );
}
