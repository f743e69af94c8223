// Issue 17, item 2: one callback address. The portal settings give the browser the server's
// PUBLIC_URL, so the help page shows exactly what a config's card shows, whatever address the
// portal was opened at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthCallbackUrl } from '@parla/shared/schemas/oauth';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('the OAuth callback address', () => {
  it("is the same in the portal settings and on a config, built from PUBLIC_URL whatever the request's host", async () => {
    const settings = await server.inject({ method: 'GET', url: '/api/portal_settings', appKey: null, headers: { host: '127.0.0.1:9999' } });
    expect(settings.statusCode).toBe(200);
    const publicUrl = settings.json().publicUrl as string;
    expect(publicUrl).toBe('http://parla.test');

    const customer = await createCustomer(server, 'callback');
    const saved = await server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: customer.token,
      headers: { host: '127.0.0.1:9999' },
      payload: {
        appName: 'Staff',
        partner: 'Google',
        clientId: 'client-1',
        clientSecret: 'a client secret value',
        oauthURL: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenIssueURL: 'https://oauth2.googleapis.com/token',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const app = saved.json().oauthApp as { appId: number; callbackURL: string };
    expect(app.callbackURL).toBe(oauthCallbackUrl(publicUrl, app.appId));
    expect(oauthCallbackUrl(publicUrl, '{config ID}')).toBe('http://parla.test/api/oauth/callback/{config ID}');
  });
});
