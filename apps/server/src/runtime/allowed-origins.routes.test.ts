// Allowed websites of an avatar (docs/decisions/205-allowed-websites.md): saved normalised with
// the avatar, read by the runtime; a page of a listed origin connects, another origin is refused
// with its close code, the portal's own origin always connects, and an empty list lets any page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_ORIGINS_MAX, ALLOWED_ORIGINS_MESSAGES as O } from '@parla/shared/schemas/allowed-origins';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { SubscriptionType } from '@parla/shared/plans';
import { createCustomer, type TestAccount } from '../../test/accounts';
import { closeAll, connect, listen } from '../../test/conversation-client';
import { createTestServer, type TestServer } from '../../test/harness';
import { save } from '../../test/avatar-requests';

let server: TestServer;
let host: string;
let alice: TestAccount;
let bob: TestAccount;
let appearance: { id: string; type: string };

beforeAll(async () => {
  server = await createTestServer();
  host = await listen(server);
  alice = await createCustomer(server, 'origins-a');
  bob = await createCustomer(server, 'origins-b');
  // Several avatars below: no plan limit in the way.
  await server.ctx.db
    .updateTable('users')
    .set({ subscription_type: SubscriptionType.ENTERPRISE })
    .where('id', 'in', [alice.id, bob.id])
    .execute();
  appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' }))
    .json()
    .avatars.find((a: { type: string }) => a.type === '2d');
});
afterEach(async () => {
  await closeAll();
});
afterAll(async () => {
  await server.close();
});

async function avatar(account = alice, extra: object = {}): Promise<Avatar> {
  const res = await save(server, account.token, { name: 'Embedded', dhType: appearance.type, appearanceId: appearance.id, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

const open = (a: Avatar, origin?: string) => connect(host, { avatarId: a.id, token: a.token }, { type: 'hello' }, origin ? { origin } : {});

describe('allowed websites', () => {
  it('are saved normalised, without repeats, and answered with the avatar', async () => {
    const a = await avatar();
    expect(a.allowedOrigins).toEqual([]);
    const res = await save(server, alice.token, {
      ...a,
      allowedOrigins: ['https://Shop.Example.com/', 'https://shop.example.com:443', 'http://localhost:3000'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agent.allowedOrigins).toEqual(['https://shop.example.com', 'http://localhost:3000']);
    const stored = (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: alice.token })).json().agent as Avatar;
    expect(stored.allowedOrigins).toEqual(['https://shop.example.com', 'http://localhost:3000']);
    // A save that leaves the field out keeps the list.
    const { allowedOrigins: _, ...rest } = res.json().agent as Avatar;
    const kept = await save(server, alice.token, rest);
    expect(kept.json().agent.allowedOrigins).toEqual(['https://shop.example.com', 'http://localhost:3000']);
  });

  it('refuses what is not an origin, and too long a list, with the messages', async () => {
    const a = await avatar();
    for (const bad of [
      'example.com',
      'https://example.com/shop',
      'https://example.com?x=1',
      'ftp://example.com',
      'https://user@example.com',
      'https://example.com:99999',
      '*',
      'https://*.example.com',
      'javascript:alert(1)',
    ]) {
      const res = await save(server, alice.token, { ...a, allowedOrigins: [bad] });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors.join(' '), bad).toContain(O.invalid);
    }
    const many = Array.from({ length: ALLOWED_ORIGINS_MAX + 1 }, (_, i) => `https://site${i}.example.com`);
    const res = await save(server, alice.token, { ...a, allowedOrigins: many });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.join(' ')).toContain(O.tooMany);
  });

  it('a page of a listed origin connects; another origin or none is refused with the origin close code', async () => {
    const a = await avatar(alice, { allowedOrigins: ['https://shop.example.com'] });
    const listed = await open(a, 'https://shop.example.com');
    expect((await listed.next('ready')).avatarId).toBe(a.id);

    const other = await open(a, 'https://evil.example.net');
    const refusal = await other.next('error');
    expect(refusal.code).toBe(ErrorCode.AuthenticationFailed);
    expect(refusal.message).toBe('This page may not open conversations with this avatar.');
    expect((await other.closed).code).toBe(CLOSE_CODES.originRefused);
    // Same host, other scheme or port: another origin.
    expect((await (await open(a, 'http://shop.example.com')).closed).code).toBe(CLOSE_CODES.originRefused);
    expect((await (await open(a, 'https://shop.example.com:8443')).closed).code).toBe(CLOSE_CODES.originRefused);
    // A client that sends no Origin is not a listed page either.
    expect((await (await open(a)).closed).code).toBe(CLOSE_CODES.originRefused);
  });

  it("the portal's own pages (player, editor preview, access link) always connect", async () => {
    const a = await avatar(alice, { allowedOrigins: ['https://shop.example.com'] });
    const own = await open(a, server.ctx.config.PUBLIC_URL);
    expect((await own.next('ready')).avatarId).toBe(a.id);
  });

  it('an empty list lets any page connect, and clearing the list opens the avatar again', async () => {
    const a = await avatar(alice, { allowedOrigins: ['https://shop.example.com'] });
    expect((await (await open(a, 'https://blog.example.org')).closed).code).toBe(CLOSE_CODES.originRefused);
    const cleared = await save(server, alice.token, { ...a, allowedOrigins: [] });
    expect(cleared.json().agent.allowedOrigins).toEqual([]);
    expect((await (await open(cleared.json().agent, 'https://blog.example.org')).next('ready')).avatarId).toBe(a.id);
    expect((await (await open(cleared.json().agent)).next('ready')).avatarId).toBe(a.id);
  });

  it("another account's list does not apply to this avatar", async () => {
    await avatar(bob, { allowedOrigins: ['https://bob.example.com'] });
    const mine = await avatar(alice);
    expect((await (await open(mine, 'https://anywhere.example.com')).next('ready')).avatarId).toBe(mine.id);
  });

  it('only the listed sites and the portal may frame the avatar page; with no list any site may; with no avatar none may', async () => {
    const open = await avatar();
    const anyone = await server.inject({ method: 'GET', url: `/avatar/${open.id}` });
    expect(anyone.headers['content-security-policy']).not.toContain('frame-ancestors');
    const listed = await avatar(alice, { allowedOrigins: ['https://Shop.Example.com/', 'http://localhost:3000'] });
    const page = await server.inject({ method: 'GET', url: `/avatar/${listed.id}` });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self' https://shop.example.com http://localhost:3000");
    expect(page.headers['x-frame-options']).toBeUndefined();
    // Fail closed (decision 206): a page whose avatar was not found may be framed by no site.
    const unknown = await server.inject({ method: 'GET', url: '/avatar/no-such-avatar' });
    expect(unknown.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
