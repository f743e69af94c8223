// Stand-in for Google: the OAuth token endpoint (RFC 7523 JWT bearer grant, checking the RS256
// signature against the service account's public key) and Dialogflow ES v2 / CX v3 detectIntent.
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { sendJson, startHttp, type StandIn } from './http';

export interface GoogleStandIn extends StandIn {
  /** The service-account key file a customer would upload. */
  keyFile: string;
  tokensIssued: number;
}

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issued = new Set<string>();
  const self = { tokensIssued: 0 } as GoogleStandIn;
  const http = await startHttp((req, res) => {
    if (req.path === '/token') {
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return sendJson(res, 400, { error: 'unsupported_grant_type' });
      const [h, p, s] = (form.get('assertion') ?? '').split('.');
      const v = createVerify('RSA-SHA256');
      v.update(`${h}.${p}`);
      if (!h || !p || !s || !v.verify(publicKey, Buffer.from(s, 'base64url')))
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { iss: string; aud: string; scope: string; exp: number };
      if (claims.iss !== 'agent@stand-in.iam.gserviceaccount.com' || !claims.scope.includes('dialogflow'))
        return sendJson(res, 400, { error: 'invalid_grant' });
      const token = `ya29.stand-in-${++self.tokensIssued}`;
      issued.add(token);
      return sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !issued.has(bearer))
      return sendJson(res, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    const es = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/]+):detectIntent$/.exec(req.path);
    if (es) {
      const b = req.json() as { queryInput: { text: { text: string; languageCode: string } } };
      return sendJson(res, 200, {
        responseId: 'r1',
        queryResult: {
          queryText: b.queryInput.text.text,
          languageCode: b.queryInput.text.languageCode,
          fulfillmentText: `ES ${es[1]} answers: ${b.queryInput.text.text}`,
          intent: { displayName: 'Default' },
        },
      });
    }
    const cx = /^\/v3\/projects\/([^/]+)\/locations\/([^/]+)\/agents\/([^/]+)\/sessions\/([^/]+):detectIntent$/.exec(req.path);
    if (cx) {
      const b = req.json() as { queryInput: { text: { text: string }; languageCode: string } };
      return sendJson(res, 200, {
        queryResult: {
          text: b.queryInput.text.text,
          languageCode: b.queryInput.languageCode,
          responseMessages: [{ text: { text: [`CX ${cx[3]} in ${cx[2]} answers: ${b.queryInput.text.text}`] } }],
        },
      });
    }
    return sendJson(res, 404, { error: { code: 404, message: 'Not found' } });
  });
  Object.assign(self, http, {
    keyFile: JSON.stringify({
      type: 'service_account',
      project_id: 'stand-in-project',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'agent@stand-in.iam.gserviceaccount.com',
      token_uri: `${http.url}/token`,
    }),
  });
  return self;
}
