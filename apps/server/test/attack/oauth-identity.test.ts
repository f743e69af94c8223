// Memory keyed by an OAuth identity (issue 13, decision 624): the partner's id_token keys the
// end user's memory only when it verifies against the partner's JWKS with our client id, the
// sign-in's nonce, the configured issuer and an unexpired time. A forged, unsigned, replayed
// (wrong nonce), foreign (wrong audience or issuer) or expired token opens the conversation the
// code exchange allowed, but keys nothing: that user's summaries stay out of reach.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../harness';
import { createCustomer, type TestAccount } from '../accounts';
import { closeAll, connect, listen, testAvatars } from '../conversation-client';
import { browserCookie } from '../oauth-browser';
import { PARTNER_CLIENT, startOAuthPartner, type IdTokenMode, type OAuthPartnerStandIn } from '../stand-ins/runtime/oauth-partner';
import { REST_KEY, startRestStandIn, type RestStandIn } from '../stand-ins/runtime/rest-endpoint';
import { NO_SETTINGS } from '../../src/runtime/avatar-settings';

let server: TestServer;
let host: string;
let partner: OAuthPartnerStandIn;
let rest: RestStandIn;
let alice: TestAccount;
let verifiedApp: number;
let plainApp: number;
let privateJwksApp: number;

async function addApp(extra: Record<string, unknown>): Promise<number> {
  const res = await server.inject({
    method: 'POST',
    url: '/api/add_oauthapp',
    token: alice.token,
    payload: {
      appName: `Partner ${Object.keys(extra).length}`,
      partner: 'SmartPension',
      clientId: PARTNER_CLIENT.id,
      clientSecret: PARTNER_CLIENT.secret,
      oauthURL: `${partner.url}/authorize`,
      tokenIssueURL: `${partner.url}/token`,
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().appId as number;
}

beforeAll(async () => {
  [partner, rest] = await Promise.all([startOAuthPartner(), startRestStandIn()]);
  server = await createTestServer({ OUTBOUND_ALLOW: [partner.allow, rest.allow].join(',') });
  host = await listen(server);
  alice = await createCustomer(server, 'oauth-id');
  verifiedApp = await addApp({ issuer: partner.url, jwksURL: `${partner.url}/jwks` });
  plainApp = await addApp({});
  privateJwksApp = await addApp({ issuer: partner.url, jwksURL: 'http://169.254.169.254/latest/jwks' });
  const engine = { kind: 'rest' as const, url: `${rest.url}/hook`, apiKey: REST_KEY };
  const settings = { ...NO_SETTINGS, summaryEnabled: true };
  testAvatars(server, {
    verified: { ownerId: alice.id, oauthAppId: verifiedApp, engine, settings },
    plain: { ownerId: alice.id, oauthAppId: plainApp, engine, settings },
    'private-jwks': { ownerId: alice.id, oauthAppId: privateJwksApp, engine, settings },
  });
});
afterEach(async () => {
  partner.idToken = 'signed';
  partner.subject = 'user-77';
  await closeAll();
});
afterAll(async () => {
  await server.close();
  await Promise.all([partner.close(), rest.close()]);
});

/** Signs in as a browser would and opens a conversation with the grant; answers its record. */
async function converse(avatarId: string): Promise<{ sessionId: string; verifiedUserId: string | null; chatSummary: unknown }> {
  const start = await server.inject({ method: 'GET', url: `/api/oauth/start/${avatarId}`, appKey: null });
  expect(start.statusCode, start.body).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.searchParams.get('nonce')).toMatch(/^[0-9a-f]{16}$/);
  const approved = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(approved.headers.get('location')!);
  const done = await server.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    appKey: null,
    headers: { cookie: browserCookie(start) },
  });
  expect(done.statusCode, done.body).toBe(302);
  const grant = new URL(done.headers.location as string, 'http://x').searchParams.get('oauthGrant')!;
  const c = await connect(host, { avatarId, oauthGrant: grant });
  const { sessionId } = await c.next('ready');
  await c.ask('hello');
  const chat = rest
    .events()
    .filter((e) => e.sessionId === sessionId && e.event === 'CHAT')
    .at(-1) as unknown as { summary?: unknown };
  c.send({ type: 'bye' });
  await c.closed;
  const row = await server.ctx.db
    .selectFrom('conversations')
    .select('verified_user_id')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return { sessionId, verifiedUserId: row.verified_user_id ?? null, chatSummary: chat?.summary };
}

describe('an OAuth identity keys memory only when its id_token is verified', () => {
  it('keys the conversation by the verified subject, gives that user the last summary as memory, and fetches the JWKS once', async () => {
    const first = await converse('verified');
    expect(first.verifiedUserId).toBe(`oauth:${verifiedApp}:user-77`);
    // The summary the end of the first conversation wrote (set here: the product's model is not part of this test).
    await server.ctx.db
      .updateTable('conversations')
      .set({ summary: 'Ada wants a room with a view.' })
      .where('id', '=', first.sessionId)
      .execute();
    const second = await converse('verified');
    expect(second.verifiedUserId).toBe(`oauth:${verifiedApp}:user-77`);
    expect(second.chatSummary).toBe('Ada wants a room with a view.');
    expect(partner.requests.filter((r) => r.path === '/jwks')).toHaveLength(1);

    partner.subject = 'user-88';
    const other = await converse('verified');
    expect(other.verifiedUserId).toBe(`oauth:${verifiedApp}:user-88`);
    expect(other.chatSummary).toBeUndefined();
  });

  const forged: IdTokenMode[] = ['unsigned', 'other-key', 'wrong-nonce', 'wrong-audience', 'wrong-issuer', 'expired'];
  for (const mode of forged) {
    it(`keys nothing with a ${mode} id_token: the conversation opens but reaches no one's memory`, async () => {
      const first = await converse('verified');
      await server.ctx.db.updateTable('conversations').set({ summary: 'Secret of user-77.' }).where('id', '=', first.sessionId).execute();
      partner.idToken = mode;
      const attack = await converse('verified');
      expect(attack.verifiedUserId).toBeNull();
      expect(attack.chatSummary).toBeUndefined();
    });
  }

  it('fetches a JWKS URL only through the outbound guard: a private address is refused and keys nothing', async () => {
    const from = server.logs.length;
    const c = await converse('private-jwks');
    expect(c.verifiedUserId).toBeNull();
    const line = server.logs.slice(from).find((l) => l.includes('OAuth id_token not verified')) ?? '';
    expect(line).toMatch(/"reason":"Outbound request refused/);
  });

  it('keys nothing without a JWKS URL when the token endpoint is not https', async () => {
    const c = await converse('plain');
    expect(c.verifiedUserId).toBeNull();
  });
});
