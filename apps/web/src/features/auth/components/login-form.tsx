// Sign in (spec 4 §2, §5): Email, Password, Remember me (on by default), Sign In, a Forgot
// password link and, when the portal allows it, a Register link.
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { loginForm, type LoginForm } from '@parla/shared/schemas/auth';
import { FormTextField } from '../../../components/form/form-text-field';
import { ErrorAlert } from '../../../components/error-alert';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../config/paths';
import { usePortalSettings } from '../../../lib/portal-settings';
import { useLogin } from '../api/login';

export function LoginFormView({ onSignedIn }: { onSignedIn: () => void }) {
  const { allowRegistration } = usePortalSettings();
  const login = useLogin();
  const { control, handleSubmit } = useForm<LoginForm>({
    resolver: zodResolver(loginForm),
    defaultValues: { email: '', password: '', rememberMe: true },
    reValidateMode: 'onChange',
  });

  const submit = handleSubmit((values) => login.mutate(values, { onSuccess: onSignedIn }));

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Sign in">
      <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" autoFocus required />
      <FormTextField control={control} name="password" label="Password" type="password" autoComplete="current-password" required />
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 1 }}>
        <Controller
          control={control}
          name="rememberMe"
          render={({ field }) => (
            <FormControlLabel
              control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
              label="Remember me"
            />
          )}
        />
        <Link component={RouterLink} to={paths.forgotPassword} variant="body2">
          Forgot password?
        </Link>
      </Box>
      {login.isError && (
        <>
          <ErrorAlert title="Sigin In Failed" error={login.error} />
          {login.error instanceof ApiError && login.error.status > 0 && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
              Error code {login.error.code} · HTTP {login.error.status}
            </Typography>
          )}
        </>
      )}
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={login.isPending}>
        {login.isPending ? <CircularProgress size={24} color="inherit" aria-label="Signing in" /> : 'Sign In'}
      </Button>
      {allowRegistration && (
        <Typography variant="body2" align="center" sx={{ mt: 2 }}>
          New here?{' '}
          <Link component={RouterLink} to={paths.register}>
            Register
          </Link>
        </Typography>
      )}
    </Box>
  );
}
