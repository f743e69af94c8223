// Register (spec 4 §2, §5): First Name, Last Name, Company Name (optional), Email, Password;
// then 'Verification email sent'. Only when the portal allows registration.
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { registerRequest, type RegisterForm, type RegisterRequest } from '@parla/shared/schemas/auth';
import { PASSWORD_MIN_LENGTH } from '@parla/shared/limits';
import { AuthCard } from '../../../components/auth-card';
import { ErrorAlert } from '../../../components/error-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { paths } from '../../../config/paths';
import { useRegister } from '../../../features/auth/api/register';
import { usePortalSettings } from '../../../lib/portal-settings';

function BackToSignIn() {
  return (
    <Link component={RouterLink} to={paths.login}>
      Back to sign in
    </Link>
  );
}

export default function RegisterRoute() {
  const { allowRegistration } = usePortalSettings();
  const register = useRegister();
  const { control, handleSubmit, getValues } = useForm<RegisterForm, unknown, RegisterRequest>({
    resolver: zodResolver(registerRequest),
    defaultValues: { firstName: '', lastName: '', companyName: '', email: '', password: '' },
    reValidateMode: 'onChange',
  });

  if (!allowRegistration) {
    return (
      <AuthCard title="Registration is closed">
        <Alert severity="info">Registration is currently disabled. Ask your administrator for an account.</Alert>
        <Box sx={{ mt: 2 }}>
          <BackToSignIn />
        </Box>
      </AuthCard>
    );
  }

  if (register.isSuccess) {
    return (
      <AuthCard title="Verification email sent">
        <Typography>
          We have sent a verification link to <strong>{getValues('email')}</strong>. Open it to activate your account, then sign in.
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          No mail after a few minutes? Check your spam folder, or sign in: we send a new link if your address is not verified yet.
        </Typography>
        <Box sx={{ mt: 3 }}>
          <BackToSignIn />
        </Box>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create your account" subtitle="Build your first talking avatar in minutes.">
      <Box component="form" noValidate aria-label="Register" onSubmit={handleSubmit((values) => register.mutate(values))}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          <FormTextField control={control} name="firstName" label="First Name" autoComplete="given-name" required autoFocus />
          <FormTextField control={control} name="lastName" label="Last Name" autoComplete="family-name" required />
        </Box>
        <FormTextField control={control} name="companyName" label="Company Name" autoComplete="organization" helperText="Optional" />
        <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" required />
        <FormTextField
          control={control}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          helperText={`At least ${PASSWORD_MIN_LENGTH} characters`}
        />
        {register.isError && <ErrorAlert title="Registration Failed" error={register.error} />}
        <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={register.isPending}>
          {register.isPending ? <CircularProgress size={24} color="inherit" aria-label="Registering" /> : 'Register'}
        </Button>
        <Typography variant="body2" align="center" sx={{ mt: 2 }}>
          Already have an account? <BackToSignIn />
        </Typography>
      </Box>
    </AuthCard>
  );
}
