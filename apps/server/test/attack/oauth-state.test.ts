// The OAuth gate's state (issue 33, item 6). A callback URL (the partner's code and our state)
// must work once, and only in the browser that started the sign-in: replayed, or opened in
// another browser (login CSRF: the attacker signs in with his partner account and sends the
// victim his callback link), it is refused before any code exchange. The way back is a path on
// our origin, by one strict rule, already in the state.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../accounts';
import { closeAll, testAvatars } from '../conversation-client';
import { createTestServer, type TestServer } from '../harness';
import { browserCookie } from '../oauth-browser';
import { PARTNER_CLIENT, startOAuthPartner, type OAuthPartnerStandIn } from '../stand-ins/runtime/oauth-partner';

let server: TestServer;
let partner: OAuthPartnerStandIn;
let alice: TestAccount;

async function addApp(on: TestServer, token: string): Promise<number> {
  const res = await on.inject({
    method: 'POST',
    url: '/api/add_oauthapp',
    token,
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
  return res.json().appId as number;
}

beforeAll(async () => {
  partner = await startOAuthPartner();
  server = await createTestServer({ OUTBOUND_ALLOW: partner.allow });
  alice = await createCustomer(server, 'oauth-state');
  testAvatars(server, { guarded: { ownerId: alice.id, oauthAppId: await addApp(server, alice.token) } });
});
afterEach(async () => {
  await closeAll();
});
afterAll(async () => {
  await server.close();
  await partner.close();
});

/** Starts a sign-in in a browser: the partner's sign-in URL and the browser's cookie. */
async function startSignIn(back = '/avatar/guarded'): Promise<{ authorize: URL; cookie: string }> {
  const start = await server.inject({ method: 'GET', url: `/api/oauth/start/guarded?back=${encodeURIComponent(back)}`, appKey: null });
  expect(start.statusCode, start.body).toBe(302);
  return { authorize: new URL(start.headers.location as string), cookie: browserCookie(start) };
}

/** The end user approves at the partner: the callback URL it sends the browser to (a new code
 *  each time, with the state of the sign-in). */
async function approve(authorize: URL): Promise<string> {
  const approved = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(approved.headers.get('location')!);
  return `${callback.pathname}${callback.search}`;
}

async function approvedSignIn(back = '/avatar/guarded'): Promise<{ callback: string; cookie: string; state: string }> {
  const { authorize, cookie } = await startSignIn(back);
  return { callback: await approve(authorize), cookie, state: authorize.searchParams.get('state')! };
}

const openCallback = (callback: string, cookie?: string) =>
  server.inject({ method: 'GET', url: callback, appKey: null, ...(cookie ? { headers: { cookie } } : {}) });

describe('the OAuth state', () => {
  it('works once: the same state with a new code from the partner is refused without a code exchange', async () => {
    const { authorize, cookie } = await startSignIn();
    const first = await approve(authorize);
    const second = await approve(authorize);
    const exchanges = partner.exchanges;
    expect((await openCallback(first, cookie)).statusCode).toBe(302);
    expect(partner.exchanges).toBe(exchanges + 1);
    const replayed = await openCallback(second, cookie);
    expect(replayed.statusCode).toBe(401);
    expect(partner.exchanges).toBe(exchanges + 1);
  });

  it('is refused in a browser that did not start the sign-in (login CSRF)', async () => {
    const attackers = await approvedSignIn();
    const victims = await approvedSignIn();
    const exchanges = partner.exchanges;
    expect((await openCallback(attackers.callback)).statusCode).toBe(401);
    expect((await openCallback(attackers.callback, victims.cookie)).statusCode).toBe(401);
    expect((await openCallback(attackers.callback, `${attackers.cookie.split('=')[0]}=forged`)).statusCode).toBe(401);
    expect(partner.exchanges).toBe(exchanges);
    // The browser that started it still finishes.
    expect((await openCallback(attackers.callback, attackers.cookie)).statusCode).toBe(302);
  });

  it('binds the browser with an HttpOnly, SameSite=Lax cookie for the callback path that lives as long as the state', async () => {
    const start = await server.inject({ method: 'GET', url: '/api/oauth/start/guarded', appKey: null });
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/oauth\/callback/);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    const secure = await createTestServer({ OUTBOUND_ALLOW: partner.allow, PUBLIC_URL: 'https://parla.test' });
    try {
      const owner = await createCustomer(secure, 'oauth-secure');
      testAvatars(secure, { guarded: { ownerId: owner.id, oauthAppId: await addApp(secure, owner.token) } });
      const start = await secure.inject({ method: 'GET', url: '/api/oauth/start/guarded', appKey: null });
      expect(start.statusCode, start.body).toBe(302);
      expect(String(start.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it('keeps the way back a path on this server by one strict rule, in the state and in the redirect', async () => {
    const tricks = [
      '/.//evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'https://evil.example/x',
      '/..//evil.example',
    ];
    for (const back of tricks) {
      const { callback, cookie, state } = await approvedSignIn(back);
      const carried = JSON.parse(Buffer.from(state.split('.')[0]!, 'base64url').toString('utf8')) as { back: string };
      expect(carried.back, JSON.stringify(back)).toBe('/avatar/guarded');
      const done = await openCallback(callback, cookie);
      expect(done.statusCode).toBe(302);
      const location = String(done.headers.location);
      expect(location, JSON.stringify(back)).toMatch(/^\/avatar\/guarded\?oauthGrant=/);
    }
  });
});
