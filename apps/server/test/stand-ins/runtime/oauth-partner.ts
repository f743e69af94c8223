// Stand-in for an OAuth 2.0 partner (authorization code flow): /authorize approves at once and
// returns to the redirect URI with a code; /token exchanges it, checking the client id, the
// client secret and the redirect URI, and answers an access token and an OpenID id_token signed
// with its ES256 key (iss = its URL, aud = the client id, the authorize request's nonce), whose
// public half /jwks serves. `idToken` makes it misbehave for the attack tests.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { sendJson, startHttp, type StandIn } from './http';

export const PARTNER_CLIENT = { id: 'parla-client-id', secret: 'parla-client-secret-0123456789' };

export type IdTokenMode = 'signed' | 'unsigned' | 'other-key' | 'wrong-nonce' | 'wrong-audience' | 'expired' | 'wrong-issuer';

export interface OAuthPartnerStandIn extends StandIn {
  exchanges: number;
  /** How the next id_tokens are made (default 'signed'). */
  idToken: IdTokenMode;
  /** The subject of the next id_tokens (default 'user-77'). */
  subject: string;
}

const partnerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const strangerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });

async function idTokenFor(self: OAuthPartnerStandIn, nonce: string): Promise<string> {
  const mode = self.idToken;
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: self.subject, email: 'ada@partner.example', nonce: mode === 'wrong-nonce' ? 'not-the-nonce' : nonce };
  if (mode === 'unsigned') {
    const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, iss: self.url, aud: PARTNER_CLIENT.id, iat: now, exp: now + 600 })}.`;
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'partner-key' })
    .setIssuer(mode === 'wrong-issuer' ? 'https://evil.example' : self.url)
    .setAudience(mode === 'wrong-audience' ? 'another-client' : PARTNER_CLIENT.id)
    .setIssuedAt(mode === 'expired' ? now - 7200 : now)
    .setExpirationTime(mode === 'expired' ? now - 3600 : now + 600)
    .sign(mode === 'other-key' ? strangerKey.privateKey : partnerKey.privateKey);
}

export async function startOAuthPartner(): Promise<OAuthPartnerStandIn> {
  const codes = new Map<string, string>();
  const nonces = new Map<string, string>();
  const self = { exchanges: 0, idToken: 'signed', subject: 'user-77' } as OAuthPartnerStandIn;
  const http = await startHttp(async (req, res) => {
    if (req.method === 'GET' && req.path === '/authorize') {
      const redirect = req.query.get('redirect_uri');
      if (req.query.get('client_id') !== PARTNER_CLIENT.id || !redirect || req.query.get('response_type') !== 'code') {
        return sendJson(res, 400, { error: 'invalid_request' });
      }
      const code = randomBytes(12).toString('hex');
      codes.set(code, redirect);
      nonces.set(code, req.query.get('nonce') ?? '');
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', req.query.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }
    if (req.method === 'GET' && req.path === '/jwks') {
      return sendJson(res, 200, {
        keys: [{ ...partnerKey.publicKey.export({ format: 'jwk' }), kid: 'partner-key', alg: 'ES256', use: 'sig' }],
      });
    }
    if (req.method === 'POST' && req.path === '/token') {
      const form = new URLSearchParams(req.body.toString('utf8'));
      const code = form.get('code') ?? '';
      const redirect = codes.get(code);
      if (
        form.get('grant_type') !== 'authorization_code' ||
        form.get('client_id') !== PARTNER_CLIENT.id ||
        form.get('client_secret') !== PARTNER_CLIENT.secret
      ) {
        return sendJson(res, 401, { error: 'invalid_client' });
      }
      if (!redirect || redirect !== form.get('redirect_uri')) return sendJson(res, 400, { error: 'invalid_grant' });
      codes.delete(code);
      self.exchanges++;
      const idToken = await idTokenFor(self, nonces.get(code) ?? '');
      return sendJson(res, 200, { access_token: `at-${code}`, token_type: 'Bearer', expires_in: 3600, id_token: idToken });
    }
    return sendJson(res, 404, { error: 'not_found' });
  });
  return Object.assign(self, http);
}
