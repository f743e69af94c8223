// Attacks on who may reach an avatar (issue 20, findings 3, 5, 6 and 9): an id spelt another way
// to dodge Allowed websites, the fixed link token of a key-protected avatar, a suspended account's
// avatars, an oversized socket frame, a NUL in the hello, another account's OAuth config.
// Everything runs through the real server: HTTP by inject, conversations over a listening socket.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { SubscriptionType } from '@parla/shared/plans';
import { createAdmin, createCustomer, type TestAccount } from '../accounts';
import { closeAll, connect, listen } from '../conversation-client';
import { createTestServer, type TestServer } from '../harness';
import { save } from '../avatar-requests';

let server: TestServer;
let host: string;
let alice: TestAccount;
let mallory: TestAccount;
let admin: TestAccount;
let appearance: { id: string; type: string };

beforeAll(async () => {
  server = await createTestServer();
  host = await listen(server);
  alice = await createCustomer(server, 'access-a');
  mallory = await createCustomer(server, 'access-m');
  admin = await createAdmin(server);
  await server.ctx.db
    .updateTable('users')
    .set({ subscription_type: SubscriptionType.ENTERPRISE })
    .where('id', 'in', [alice.id, mallory.id])
    .execute();
  appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' }))
    .json()
    .avatars.find((a: { type: string }) => a.type === '2d');
}, 60_000);
afterEach(async () => {
  await closeAll();
});
afterAll(async () => {
  await server.close();
});

async function avatar(account: TestAccount, extra: object = {}): Promise<Avatar> {
  const res = await save(server, account.token, { name: 'Guarded', dhType: appearance.type, appearanceId: appearance.id, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

const publicView = (id: string, token?: string) =>
  server.inject({
    method: 'GET',
    url: `/api/public/avatar/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
    appKey: null,
  });

describe('an avatar id spelt another way (finding 3)', () => {
  it('is not found at every entry point, and its page may be framed by no site', async () => {
    const a = await avatar(alice, { allowedOrigins: ['https://shop.example'] });
    const page = await server.inject({ method: 'GET', url: `/avatar/${a.id}` });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self' https://shop.example");

    const spellings = [`${a.id}%20`, `${a.id}%09`, `${a.id}%2F`, `%20${a.id}`, `${a.id}%0A`, a.id.toUpperCase(), `${a.id}%00`];
    const failures: string[] = [];
    for (const s of spellings) {
      const p = await server.inject({ method: 'GET', url: `/avatar/${s}` });
      // 503 only while the player is not built; the header is what browsers act on.
      if (![404, 503].includes(p.statusCode)) failures.push(`page ${s}: ${p.statusCode}`);
      if (!String(p.headers['content-security-policy']).includes("frame-ancestors 'none'"))
        failures.push(`page ${s}: ${p.headers['content-security-policy']}`);
      const view = await publicView(s, a.token);
      if (view.statusCode !== 404) failures.push(`public view ${s}: ${view.statusCode}`);
      const json = await server.inject({ method: 'GET', url: `/config-files/avatars/${s}/avatar.json`, token: alice.token });
      if (json.statusCode !== 404) failures.push(`config file ${s}: ${json.statusCode}`);
      const users = await server.inject({
        method: 'POST',
        url: '/api/list_avatar_users',
        token: alice.token,
        payload: { agentId: decodeURIComponent(s), mode: 'get' },
      });
      if (![400, 404].includes(users.statusCode)) failures.push(`list_avatar_users ${s}: ${users.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('opens no conversation over the socket', async () => {
    const a = await avatar(alice);
    const c = await connect(host, { avatarId: ` ${a.id}`, token: a.token });
    expect((await c.next('error')).code).toBe(9);
    expect((await c.closed).code).toBe(4009);
    const upper = await connect(host, { avatarId: a.id.toUpperCase(), token: a.token });
    expect((await upper.closed).code).toBe(4009);
  });

  it('gives an avatar that does not exist a page no site may frame', async () => {
    const p = await server.inject({ method: 'GET', url: '/avatar/00000000-0000-4000-8000-000000000000' });
    expect(p.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('the fixed link token (finding 5)', () => {
  it('does not open an avatar protected by a created key, in the public view or the socket', async () => {
    const created = await server.inject({ method: 'POST', url: '/api/enc/add', token: alice.token, payload: { name: 'Site key' } });
    expect(created.statusCode, created.body).toBe(200);
    const keyId = created.json().key.id as string;
    const open = await avatar(alice);
    const fixedBefore = open.token;
    const saved = await save(server, alice.token, { ...open, encKeyId: keyId });
    expect(saved.statusCode, saved.body).toBe(200);
    const keyed = saved.json().agent as Avatar;
    // The option changed: the token handed out under Default is replaced.
    expect(keyed.token).not.toBe(fixedBefore);
    for (const token of [fixedBefore, keyed.token]) {
      expect((await publicView(keyed.id, token)).statusCode).toBe(401);
      const c = await connect(host, { avatarId: keyed.id, token });
      expect((await c.closed).code).toBe(4013);
    }
  });

  it('can be regenerated by its owner only, and the old link stops working at once', async () => {
    const a = await avatar(alice);
    expect((await publicView(a.id, a.token)).statusCode).toBe(200);
    const foreign = await server.inject({
      method: 'POST',
      url: '/api/avatar/regenerate_token',
      token: mallory.token,
      payload: { agentId: a.id },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await publicView(a.id, a.token)).statusCode).toBe(200);
    const res = await server.inject({
      method: 'POST',
      url: '/api/avatar/regenerate_token',
      token: alice.token,
      payload: { agentId: a.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { token } = res.json() as { token: string };
    expect(token).not.toBe(a.token);
    expect((await publicView(a.id, a.token)).statusCode).toBe(401);
    expect((await publicView(a.id, token)).statusCode).toBe(200);
    // The editor's version is unchanged: a save it makes after regenerating is not stale.
    expect((await save(server, alice.token, { ...a, name: 'Renamed' })).statusCode).toBe(200);
  });
});

describe("a suspended account's avatars (finding 6)", () => {
  it('end their live conversations when suspended, then refuse the public view and new conversations', async () => {
    const victim = await createCustomer(server, 'access-s');
    const a = await avatar(victim);
    const live = await connect(host, { avatarId: a.id, token: a.token });
    await live.next('ready');
    const res = await server.inject({
      method: 'POST',
      url: '/api/admin/customer_status',
      token: admin.token,
      payload: { userId: victim.id, status: 'SUSPENDED' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await live.next('error')).code).toBe(6);
    expect((await live.closed).code).toBe(4006);
    await expect
      .poll(
        async () =>
          (await server.ctx.db.selectFrom('conversations').select('ended_at').where('owner_id', '=', victim.id).executeTakeFirst())
            ?.ended_at,
      )
      .not.toBeNull();

    const view = await publicView(a.id, a.token);
    expect(view.statusCode).toBe(403);
    expect(view.json().code).toBe(6);
    const again = await connect(host, { avatarId: a.id, token: a.token });
    expect((await again.next('error')).code).toBe(6);
    expect((await again.closed).code).toBe(4006);

    // Reactivated, the avatar serves again.
    await server.inject({
      method: 'POST',
      url: '/api/admin/customer_status',
      token: admin.token,
      payload: { userId: victim.id, status: 'ACTIVE' },
    });
    expect((await publicView(a.id, a.token)).statusCode).toBe(200);
  });

  it("send no end user to the account's OAuth partner while suspended", async () => {
    const victim = await createCustomer(server, 'access-o');
    const app = await server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: victim.token,
      payload: {
        appName: 'Partner',
        partner: 'Google',
        clientId: 'cid-o',
        clientSecret: 'victim-client-secret',
        oauthURL: 'https://accounts.example.com/a',
        tokenIssueURL: 'https://accounts.example.com/t',
      },
    });
    const a = await avatar(victim);
    const linked = await save(server, victim.token, { ...a, oauthEnabled: 1, partnerOauthAppId: String(app.json().appId) });
    expect(linked.statusCode, linked.body).toBe(200);
    const start = () => server.inject({ method: 'GET', url: `/api/oauth/start/${a.id}`, appKey: null });
    expect((await start()).statusCode).toBe(302);
    await server.inject({
      method: 'POST',
      url: '/api/admin/customer_status',
      token: admin.token,
      payload: { userId: victim.id, status: 'SUSPENDED' },
    });
    expect((await start()).statusCode).toBe(404);
    const c = await connect(host, { avatarId: a.id, token: a.token });
    expect((await c.closed).code).toBe(4006);
  });
});

describe('a conversation socket (finding 9)', () => {
  it('logs a frame over the limit at info, without an error or a stack', async () => {
    const a = await avatar(alice);
    const c = await connect(host, { avatarId: a.id, token: a.token });
    await c.next('ready');
    const from = server.logs.length;
    c.ws.send(JSON.stringify({ type: 'user_text', text: 'y'.repeat(300 * 1024) }));
    expect((await c.closed).code).toBe(1009);
    await expect.poll(() => server.logs.slice(from).some((l) => /payload/i.test(l))).toBe(true);
    const lines = server.logs
      .slice(from)
      .filter((l) => /payload/i.test(l))
      .map((l) => JSON.parse(l) as { level: number; err?: unknown; stack?: unknown });
    expect(
      lines.every((l) => l.level === 30 && l.err === undefined && l.stack === undefined),
      JSON.stringify(lines),
    ).toBe(true);
  });

  it('refuses a hello holding a NUL with invalid params, and records nothing', async () => {
    const a = await avatar(alice);
    const count = async () => (await server.ctx.db.selectFrom('conversations').select('id').where('avatar_id', '=', a.id).execute()).length;
    const c = await connect(host, { avatarId: a.id, token: a.token }, { type: 'hello', userName: 'Ada\u0000', deviceId: 'device-nul' });
    expect((await c.next('error')).code).toBe(7);
    expect((await c.closed).code).toBe(4007);
    expect(await count()).toBe(0);
  });
});

describe("another account's OAuth config (finding 9)", () => {
  it('cannot be linked to an avatar, and the avatar stays as it was', async () => {
    const app = await server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: alice.token,
      payload: {
        appName: 'Alice partner',
        partner: 'Google',
        clientId: 'cid',
        clientSecret: 'alice-client-secret',
        oauthURL: 'https://accounts.example.com/a',
        tokenIssueURL: 'https://accounts.example.com/t',
      },
    });
    expect(app.statusCode, app.body).toBe(200);
    const appId = String(app.json().appId);
    const own = await avatar(mallory);
    for (const partnerOauthAppId of [appId, '999999', '99999999999']) {
      const res = await save(server, mallory.token, { ...own, oauthEnabled: 1, partnerOauthAppId });
      expect(res.statusCode, `${partnerOauthAppId}: ${res.body}`).toBe(404);
    }
    const stored = await server.ctx.db
      .selectFrom('avatars')
      .select(['oauth_enabled', 'partner_oauth_app_id', 'updated_at'])
      .where('id', '=', own.id)
      .executeTakeFirstOrThrow();
    expect(stored.oauth_enabled).toBe(0);
    expect(stored.partner_oauth_app_id).toBeNull();
    // The owner's own config links.
    const mine = await server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: mallory.token,
      payload: {
        appName: 'Mine',
        partner: 'Google',
        clientId: 'c2',
        clientSecret: 'mallory-client-secret',
        oauthURL: 'https://accounts.example.com/a',
        tokenIssueURL: 'https://accounts.example.com/t',
      },
    });
    const linked = await save(server, mallory.token, { ...own, oauthEnabled: 1, partnerOauthAppId: String(mine.json().appId) });
    expect(linked.statusCode, linked.body).toBe(200);
  });
});
