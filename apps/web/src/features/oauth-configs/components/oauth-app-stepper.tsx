// The OAuth config wizard (spec 1 §2, §4, §5): Step 1 'OAuth Info', Step 2 'OAuth Details',
// then the finished step with Submit and a reset link. Next is blocked until the current step
// is valid; an error clears as soon as its field gets a value. Used by create and edit.
import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useForm, useWatch, type FieldPath, type Resolver } from 'react-hook-form';
import {
  OAUTH_PARTNER_DEFAULTS,
  OAUTH_PARTNERS,
  oauthAppFields,
  type OAuthAppFields,
  type OAuthPartner,
} from '@parla/shared/schemas/oauth';
import { FormTextField } from '../../../components/form/form-text-field';

export const STEPS = ['OAuth Info', 'OAuth Details'] as const;
const STEP_FIELDS: FieldPath<OAuthAppFields>[][] = [
  ['appName', 'partner'],
  ['clientId', 'clientSecret', 'oauthURL', 'tokenIssueURL', 'issuer', 'jwksURL'],
];

/** The form's values: partner is '' until one is chosen. */
export type OAuthAppFormValues = Omit<OAuthAppFields, 'partner'> & { partner: OAuthPartner | '' };

export const EMPTY_OAUTH_APP: OAuthAppFormValues = {
  appName: '',
  partner: '',
  clientId: '',
  clientSecret: '',
  oauthURL: '',
  tokenIssueURL: '',
  issuer: '',
  jwksURL: '',
};

export interface OAuthAppStepperProps {
  initial: OAuthAppFormValues;
  /** Runs the save; the caller shows the outcome. */
  onSubmit: (values: OAuthAppFields) => void;
  submitting: boolean;
  /** Shown instead of the buttons once saved (the success box). */
  done?: boolean;
  /** On edit the secret is shown masked; leaving it as it is keeps the stored one. */
  secretHelp?: string;
  /** Prefill the partner's URLs when the partner changes (create). */
  prefillUrls?: boolean;
}

export function OAuthAppStepper({ initial, onSubmit, submitting, done, secretHelp, prefillUrls }: OAuthAppStepperProps) {
  const [active, setActive] = useState(0);
  const { control, trigger, handleSubmit, reset, getValues, setValue } = useForm<OAuthAppFormValues, unknown, OAuthAppFields>({
    // The schema refuses '' for partner with 'OAuth Identity Service is required': the form
    // starts there, so its input type is wider than the schema's.
    resolver: zodResolver(oauthAppFields) as unknown as Resolver<OAuthAppFormValues, unknown, OAuthAppFields>,
    defaultValues: initial,
    mode: 'onChange',
    reValidateMode: 'onChange',
  });

  const next = async () => {
    if (await trigger(STEP_FIELDS[active], { shouldFocus: true })) setActive((s) => s + 1);
  };

  // Choosing a partner with well-known endpoints fills the URLs that are still empty.
  const [appName, partner] = useWatch({ control, name: ['appName', 'partner'] });
  useEffect(() => {
    const urls = prefillUrls && partner ? OAUTH_PARTNER_DEFAULTS[partner] : undefined;
    if (!urls) return;
    if (!getValues('oauthURL')) setValue('oauthURL', urls.oauthURL, { shouldValidate: true });
    if (!getValues('tokenIssueURL')) setValue('tokenIssueURL', urls.tokenIssueURL, { shouldValidate: true });
    if (!getValues('issuer')) setValue('issuer', urls.issuer, { shouldValidate: true });
    if (!getValues('jwksURL')) setValue('jwksURL', urls.jwksURL, { shouldValidate: true });
  }, [partner, prefillUrls, getValues, setValue]);

  return (
    <Box
      component="form"
      noValidate
      aria-label="OAuth config"
      onSubmit={(e) => {
        // Enter moves on a step until the last one, where it submits.
        e.preventDefault();
        if (active < STEPS.length) void next();
        else if (!submitting) void handleSubmit(onSubmit)();
      }}
    >
      <Stepper activeStep={active} sx={{ mb: 2 }}>
        {STEPS.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>

      <Box hidden={active !== 0}>
        <FormTextField control={control} name="appName" label="Name" required autoFocus />
        <FormTextField
          control={control}
          name="partner"
          label="OAuth Identity Service"
          required
          select
          helperText="The service your avatar's users sign in with"
        >
          {OAUTH_PARTNERS.map((p) => (
            <MenuItem key={p} value={p}>
              {p}
            </MenuItem>
          ))}
        </FormTextField>
      </Box>

      <Box hidden={active !== 1}>
        <FormTextField control={control} name="clientId" label="Client ID" required />
        <FormTextField
          control={control}
          name="clientSecret"
          label="Client Secret"
          required
          type="password"
          autoComplete="off"
          helperText={secretHelp}
        />
        <FormTextField
          control={control}
          name="oauthURL"
          label="OAuth URL"
          required
          placeholder="https://accounts.google.com/o/oauth2/v2/auth"
        />
        <FormTextField
          control={control}
          name="tokenIssueURL"
          label="Token Issue URL"
          required
          placeholder="https://oauth2.googleapis.com/token"
        />
        {/* OpenID (decision 624): with these the end user's identity is verified and keys their memory. */}
        <FormTextField
          control={control}
          name="issuer"
          label="Issuer (optional)"
          placeholder="https://accounts.google.com"
          helperText="The iss of the partner's ID tokens"
        />
        <FormTextField
          control={control}
          name="jwksURL"
          label="JWKS URL (optional)"
          placeholder="https://www.googleapis.com/oauth2/v3/certs"
          helperText="The partner's signing keys: the user's identity is then verified and remembered"
        />
      </Box>

      {active === STEPS.length && !done && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            All steps completed
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {appName} — {partner}. Submit to save the config{initial.clientId ? '' : '; its callback URL is shown in the list afterwards'}.
          </Typography>
        </Box>
      )}

      {!done && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 3 }}>
          <Button disabled={active === 0 || submitting} onClick={() => setActive((s) => s - 1)}>
            Back
          </Button>
          <Box sx={{ flex: 1 }} />
          {active === STEPS.length && (
            <Link
              component="button"
              type="button"
              onClick={() => {
                reset(initial);
                setActive(0);
              }}
              disabled={submitting}
              sx={{ mr: 2 }}
            >
              Reset
            </Link>
          )}
          {active < STEPS.length ? (
            <Button key="next" variant="contained" onClick={() => void next()}>
              Next
            </Button>
          ) : (
            // A plain button: had Next become a submit button during its own click, the
            // browser would submit the form at once.
            <Button key="submit" variant="contained" disabled={submitting} onClick={() => void handleSubmit(onSubmit)()}>
              {submitting ? <CircularProgress size={22} color="inherit" aria-label="Saving" /> : 'Submit'}
            </Button>
          )}
        </Box>
      )}
    </Box>
  );
}
