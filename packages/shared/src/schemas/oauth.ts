// OAuth configs (spec 1 §2, §3, §5, §7): list, create/update, delete. The validation messages
// are the spec's, written once here for the server and the stepper form.
import { z } from 'zod';

export const OAUTH_PARTNERS = ['Google', 'SmartPension'] as const;
export type OAuthPartner = (typeof OAUTH_PARTNERS)[number];

/** Where each partner's end users sign in and where the code is exchanged (prefilled in the
 *  form), and the OpenID issuer and key set that sign its id_tokens (decision 624). */
export const OAUTH_PARTNER_DEFAULTS: Partial<
  Record<OAuthPartner, { oauthURL: string; tokenIssueURL: string; issuer: string; jwksURL: string }>
> = {
  Google: {
    oauthURL: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenIssueURL: 'https://oauth2.googleapis.com/token',
    issuer: 'https://accounts.google.com',
    jwksURL: 'https://www.googleapis.com/oauth2/v3/certs',
  },
};

export const OAUTH_MESSAGES = {
  nameRequired: 'Name is required',
  partnerRequired: 'OAuth Identity Service is required',
  clientIdRequired: 'Client Id is required',
  clientSecretRequired: 'Client Secret is required',
  oauthUrlRequired: 'OAuth URL is required',
  tokenUrlRequired: 'Token Issue URL is required',
  appIdInvalid: 'OAuth config id is invalid',
} as const;

/** App ids are positive whole numbers: avatars refer to them as 'Customer OAuth Config ID',
 *  which spec 3 §5 validates as a number (docs/decisions/501-oauth-app-ids-are-numbers.md). */
export const MAX_APP_ID = 2_147_483_647;

function required(message: string, max: number, label: string) {
  return z.string({ error: message }).trim().min(1, message).max(max, `${label} must be at most ${max} characters`);
}

function httpUrl(requiredMessage: string, label: string) {
  return required(requiredMessage, 2000, label).pipe(z.url({ protocol: /^https?$/, error: `${label} must be a valid http(s) URL` }));
}

const idInvalid = OAUTH_MESSAGES.appIdInvalid;
export const appIdField = z.union(
  [
    z.number({ error: idInvalid }).int(idInvalid).min(1, idInvalid).max(MAX_APP_ID, idInvalid),
    z
      .string({ error: idInvalid })
      .regex(/^\d{1,10}$/, idInvalid)
      .transform(Number)
      .refine((v) => v >= 1 && v <= MAX_APP_ID, idInvalid),
  ],
  { error: idInvalid },
);

/** An optional http(s) URL: empty means none. */
function optionalUrl(label: string) {
  return z
    .string({ error: `${label} must be a valid http(s) URL` })
    .trim()
    .max(2000, `${label} must be at most 2000 characters`)
    .refine((v) => v === '' || z.url({ protocol: /^https?$/ }).safeParse(v).success, `${label} must be a valid http(s) URL`)
    .optional()
    .nullable();
}

export const oauthAppFields = z.object({
  appName: required(OAUTH_MESSAGES.nameRequired, 100, 'Name'),
  partner: z.enum(OAUTH_PARTNERS, { error: OAUTH_MESSAGES.partnerRequired }),
  clientId: required(OAUTH_MESSAGES.clientIdRequired, 500, 'Client Id'),
  clientSecret: required(OAUTH_MESSAGES.clientSecretRequired, 2000, 'Client Secret'),
  oauthURL: httpUrl(OAUTH_MESSAGES.oauthUrlRequired, 'OAuth URL'),
  tokenIssueURL: httpUrl(OAUTH_MESSAGES.tokenUrlRequired, 'Token Issue URL'),
  /** OpenID Connect: the `iss` of the partner's id_tokens and the JWKS that signs them. With a
   *  JWKS URL the end user's identity is verified and keys memory (decision 624). */
  issuer: optionalUrl('Issuer'),
  jwksURL: optionalUrl('JWKS URL'),
});
export type OAuthAppFields = z.infer<typeof oauthAppFields>;

/** One request creates (no appId) or updates (appId). A masked clientSecret means "unchanged". */
export const saveOauthAppRequest = oauthAppFields.extend({ appId: appIdField.optional() });
export type SaveOauthAppRequest = z.input<typeof saveOauthAppRequest>;

export const deleteOauthAppRequest = z.object({
  appId: appIdField,
  mode: z.literal('delete', { error: "mode must be 'delete'" }),
});
export type DeleteOauthAppRequest = z.input<typeof deleteOauthAppRequest>;

export interface OAuthApp {
  appId: number;
  appName: string;
  partner: OAuthPartner;
  clientId: string;
  /** Always masked. */
  clientSecret: string;
  oauthURL: string;
  tokenIssueURL: string;
  issuer?: string | null;
  jwksURL?: string | null;
  /** Supplied by the product: {PUBLIC_URL}/api/oauth/callback/{appId}. */
  callbackURL: string;
  created: string;
  updated: string;
}

export interface ListOauthAppsResponse {
  oauthApps: OAuthApp[];
}

export interface SaveOauthAppResponse {
  status: 'OK';
  appId: number;
  updated: string;
  oauthApp: OAuthApp;
}

/** The path end users return to from the partner's sign-in (served by the conversation runtime). */
export function oauthCallbackPath(appId: number | string): string {
  return `/api/oauth/callback/${appId}`;
}

/** The one callback address of a config: the server's PUBLIC_URL (given to the browser in the
 *  portal settings), never the address the portal happens to be opened at (issue 17). */
export function oauthCallbackUrl(publicUrl: string, appId: number | string): string {
  return `${publicUrl.replace(/\/+$/, '')}${oauthCallbackPath(appId)}`;
}
