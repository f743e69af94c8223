// Google service-account authentication: a JWT signed with the key file's private key (RS256,
// `jose`, decision 009) is exchanged at the key's token_uri for an access token (RFC 7523 grant), which
// is cached until shortly before it expires.
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import type { OutboundClient } from '../../lib/outbound';
import type { ServiceAccount } from '../types';
import { failure, ProviderError } from './provider-error';

export const DIALOGFLOW_SCOPES = 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/dialogflow';

export function signServiceAccountJwt(account: ServiceAccount, scope: string, nowSeconds: number): Promise<string> {
  // createPrivateKey reads PKCS#8 and PKCS#1 PEM alike (Google's files are PKCS#8).
  const key = createPrivateKey(account.private_key);
  return new SignJWT({ iss: account.client_email, scope, aud: account.token_uri, iat: nowSeconds, exp: nowSeconds + 3600 })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .sign(key);
}

/** Parses an uploaded key file's text; a clear error names what is missing. */
export function parseServiceAccount(text: string): ServiceAccount {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ProviderError('Dialogflow', 'the JSON key is not valid JSON');
  }
  const missing = ['client_email', 'private_key'].filter((k) => typeof v[k] !== 'string' || !v[k]);
  if (missing.length) throw new ProviderError('Dialogflow', `the JSON key has no ${missing.join(', ')}`);
  return {
    client_email: v.client_email as string,
    private_key: v.private_key as string,
    token_uri: typeof v.token_uri === 'string' ? v.token_uri : 'https://oauth2.googleapis.com/token',
    ...(typeof v.project_id === 'string' ? { project_id: v.project_id } : {}),
  };
}

export class GoogleTokenSource {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly account: ServiceAccount,
    private readonly scope: string,
    private readonly outbound: OutboundClient,
    private readonly now: () => Date,
  ) {}

  /** A valid access token; the exchange is safe to repeat and is retried (decision 010), until
   *  `abort` (the turn or the engine ended). */
  async get(abort?: AbortSignal): Promise<string> {
    const nowMs = this.now().getTime();
    if (this.token && this.token.expiresAt - 60_000 > nowMs) return this.token.value;
    let assertion: string;
    try {
      assertion = await signServiceAccountJwt(this.account, this.scope, Math.floor(nowMs / 1000));
    } catch {
      throw new ProviderError('Dialogflow', "the JSON key's private key cannot sign");
    }
    const res = await this.outbound.fetchIdempotent('Google token', this.account.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      ...(abort ? { abort } : {}),
    });
    if (res.status !== 200) throw await failure('Google token', res);
    const json = res.json<{ access_token?: string; expires_in?: number }>();
    if (!json.access_token) throw new ProviderError('Google token', 'no access_token in the answer');
    this.token = { value: json.access_token, expiresAt: nowMs + (json.expires_in ?? 3600) * 1000 };
    return json.access_token;
  }
}
