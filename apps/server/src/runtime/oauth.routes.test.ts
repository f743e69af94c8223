// Access by OAuth code flow: an avatar with OAuth enabled opens a conversation only after the
// end user signed in with the partner (against a stand-in partner), once per sign-in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { createTestServer, type TestServer } from '../../test/harness';
import { createCustomer, type TestAccount } from '../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../test/conversation-client';
import { browserCookie } from '../../test/oauth-browser';
import { PARTNER_CLIENT, startOAuthPartner, type OAuthPartnerStandIn } from '../../test/stand-ins/runtime/oauth-partner';
import { OAUTH_REQUIRED_MESSAGE } from './runtime';

let server: TestServer;
let host: string;
let partner: OAuthPartnerStandIn;
let alice: TestAccount;
let appId: number;

beforeAll(async () => {
  partner = await startOAuthPartner();
  server = await createTestServer({ OUTBOUND_ALLOW: partner.allow });
  host = await listen(server);
  alice = await createCustomer(server, 'oauth');
  const res = await server.inject({
    method: 'POST',
    url: '/api/add_oauthapp',
    token: alice.token,
    payload: {
      appName: 'Partner',
      partner: 'SmartPension',
      clientId: PARTNER_CLIENT.id,
      clientSecret: PARTNER_CLIENT.secret,
      oauthURL: `${partner.url}/authorize`,
      tokenIssueURL: `${partner.url}/token`,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  appId = res.json().appId;
  testAvatars(server, { guarded: { ownerId: alice.id, oauthAppId: appId }, open: { ownerId: alice.id } });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await partner.close();
});

/** Follows the sign-in as a browser would; returns the way back to the avatar page. */
async function signInWithPartner(back: string): Promise<string> {
  const start = await server.inject({ method: 'GET', url: `/api/oauth/start/guarded?back=${encodeURIComponent(back)}`, appKey: null });
  expect(start.statusCode, start.body).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin + authorize.pathname).toBe(`${partner.url}/authorize`);
  expect(authorize.searchParams.get('client_id')).toBe(PARTNER_CLIENT.id);
  expect(authorize.searchParams.get('redirect_uri')).toBe(`http://parla.test/api/oauth/callback/${appId}`);
  const approved = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(approved.headers.get('location')!);
  const done = await server.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    appKey: null,
    headers: { cookie: browserCookie(start) },
  });
  expect(done.statusCode, done.body).toBe(302);
  return done.headers.location as string;
}

describe('OAuth code flow before a conversation', () => {
  it('refuses a conversation before the end user signed in', async () => {
    const c = await connect(host, { avatarId: 'guarded' });
    const err = await c.next('error');
    expect(err).toMatchObject({
      code: ErrorCode.AuthenticationFailed,
      message: OAUTH_REQUIRED_MESSAGE,
      signInUrl: '/api/oauth/start/guarded',
    });
    expect((await c.closed).code).toBe(CLOSE_CODES.authenticationFailed);
  });

  it('signs in with the partner, exchanges the code and opens one conversation with the grant', async () => {
    const back = await signInWithPartner('/avatar/guarded?token=t1&connect=true');
    expect(back).toMatch(/^\/avatar\/guarded\?token=t1&connect=true&oauthGrant=/);
    expect(partner.exchanges).toBe(1);
    const grant = new URL(back, 'http://x').searchParams.get('oauthGrant')!;
    const c = await connect(host, { avatarId: 'guarded', oauthGrant: grant });
    await c.next('ready');
    const reused = await connect(host, { avatarId: 'guarded', oauthGrant: grant });
    expect((await reused.closed).code).toBe(CLOSE_CODES.authenticationFailed);
  });

  it('never redirects back to another site and refuses a forged state', async () => {
    const back = await signInWithPartner('https://evil.example/steal');
    expect(back.startsWith('/avatar/guarded?oauthGrant=')).toBe(true);
    const forged = await server.inject({ method: 'GET', url: `/api/oauth/callback/${appId}?code=abc&state=eyJ4IjoxfQ.bad`, appKey: null });
    expect(forged.statusCode).toBe(401);
    const denied = await server.inject({ method: 'GET', url: `/api/oauth/callback/${appId}?error=access_denied`, appKey: null });
    expect(denied.json().errors).toEqual(['User denied']);
  });

  it('does not open a grant for another avatar, and avatars without OAuth need none', async () => {
    const back = await signInWithPartner('/avatar/guarded');
    const grant = new URL(back, 'http://x').searchParams.get('oauthGrant')!;
    const open = await connect(host, { avatarId: 'open' });
    await open.next('ready');
    const start = await server.inject({ method: 'GET', url: '/api/oauth/start/open', appKey: null });
    expect(start.statusCode).toBe(404);
    const c = await connect(host, { avatarId: 'guarded', oauthGrant: grant });
    await c.next('ready');
  });
});
