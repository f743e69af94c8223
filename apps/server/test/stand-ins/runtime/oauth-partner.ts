// Stand-in for an OAuth 2.0 partner (authorization code flow): /authorize approves at once and
// returns to the redirect URI with a code; /token exchanges it, checking the client id, the
// client secret and the redirect URI, and answers an access token and an OpenID id_token.
import { randomBytes } from 'node:crypto';
import { sendJson, startHttp, type StandIn } from './http';

export const PARTNER_CLIENT = { id: 'parla-client-id', secret: 'parla-client-secret-0123456789' };

export interface OAuthPartnerStandIn extends StandIn {
  exchanges: number;
}

export async function startOAuthPartner(): Promise<OAuthPartnerStandIn> {
  const codes = new Map<string, string>();
  const self = { exchanges: 0 } as OAuthPartnerStandIn;
  const http = await startHttp((req, res) => {
    if (req.method === 'GET' && req.path === '/authorize') {
      const redirect = req.query.get('redirect_uri');
      if (req.query.get('client_id') !== PARTNER_CLIENT.id || !redirect || req.query.get('response_type') !== 'code') {
        return sendJson(res, 400, { error: 'invalid_request' });
      }
      const code = randomBytes(12).toString('hex');
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', req.query.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }
    if (req.method === 'POST' && req.path === '/token') {
      const form = new URLSearchParams(req.body.toString('utf8'));
      const code = form.get('code') ?? '';
      const redirect = codes.get(code);
      if (form.get('grant_type') !== 'authorization_code' || form.get('client_id') !== PARTNER_CLIENT.id || form.get('client_secret') !== PARTNER_CLIENT.secret) {
        return sendJson(res, 401, { error: 'invalid_client' });
      }
      if (!redirect || redirect !== form.get('redirect_uri')) return sendJson(res, 400, { error: 'invalid_grant' });
      codes.delete(code);
      self.exchanges++;
      const idToken = ['e30', Buffer.from(JSON.stringify({ sub: 'user-77', email: 'ada@partner.example' })).toString('base64url'), ''].join('.');
      return sendJson(res, 200, { access_token: `at-${code}`, token_type: 'Bearer', expires_in: 3600, id_token: idToken });
    }
    return sendJson(res, 404, { error: 'not_found' });
  });
  return Object.assign(self, http);
}
