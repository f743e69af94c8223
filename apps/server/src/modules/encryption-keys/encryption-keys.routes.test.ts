import { createPrivateKey, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_NOT_DELETABLE } from '@parla/shared/schemas/encryption-keys';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { AppError } from '../../lib/errors';
import { newAccessToken, signEs256 } from './access-token';
import { generateKeyPair, issueAvatarAccessToken, verifyAvatarAccessToken } from './encryption-keys.service';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'alice');
  bob = await createCustomer(server, 'bob');
});

afterAll(async () => {
  await server.close();
});

interface Key {
  id: string;
  name: string;
  created: string;
  defaultKey: boolean;
}

async function keys(account: TestAccount): Promise<Key[]> {
  const res = await server.inject({ method: 'GET', url: '/api/enc/list', token: account.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().encKeys as Key[];
}

async function addKey(account: TestAccount, name: string) {
  const res = await server.inject({ method: 'POST', url: '/api/enc/add', token: account.token, payload: { id: null, name } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; encKey: string; key: Key };
}

describe('encryption keys', () => {
  it('gives every account one default key, created once', async () => {
    const [first, second] = await Promise.all([keys(alice), keys(alice)]);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ defaultKey: true });
    expect(second.map((k) => k.id)).toEqual(first.map((k) => k.id));
    expect((await keys(alice)).filter((k) => k.defaultKey)).toHaveLength(1);
  });

  it('creates a P-256 key pair, answers the private key once and keeps only the public key', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/enc/add', token: alice.token, payload: { name: 'Website' } });
    expect(res.headers['cache-control']).toBe('no-store');
    const { encKey, key } = res.json() as { encKey: string; key: Key };
    const priv = createPrivateKey(encKey);
    expect(priv.asymmetricKeyType).toBe('ec');
    expect(priv.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    const row = await server.ctx.db.selectFrom('encryption_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.private_key_enc).toBeNull();
    expect(createPublicKey(priv).export({ type: 'spki', format: 'pem' })).toBe(row.public_key_pem);
    const listed = await server.inject({ method: 'GET', url: '/api/enc/list', token: alice.token });
    expect(listed.body).not.toContain('PRIVATE KEY');
    expect(listed.json().encKeys.map((k: Key) => k.name)).toContain('Website');
  });

  it('validates the name with the spec message', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/enc/add', token: alice.token, payload: { name: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(['Name is a required field.']);
  });

  it('refuses to delete the default key, deletes others', async () => {
    const def = (await keys(alice)).find((k) => k.defaultKey)!;
    const res = await server.inject({ method: 'POST', url: '/api/enc/del', token: alice.token, payload: { id: def.id, mode: 'delete' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([DEFAULT_KEY_NOT_DELETABLE]);
    const { key } = await addKey(alice, 'Temporary');
    const del = await server.inject({ method: 'POST', url: '/api/enc/del', token: alice.token, payload: { id: key.id, mode: 'delete' } });
    expect(del.statusCode, del.body).toBe(200);
    expect((await keys(alice)).map((k) => k.id)).not.toContain(key.id);
  });

  it("answers 404 for another account's key", async () => {
    const { key } = await addKey(alice, 'Alice only');
    const del = await server.inject({ method: 'POST', url: '/api/enc/del', token: bob.token, payload: { id: key.id, mode: 'delete' } });
    expect(del.statusCode).toBe(404);
    expect((await keys(bob)).map((k) => k.id)).not.toContain(key.id);
    await expect(verifyAvatarAccessToken(server.ctx, bob.id, key.id, 'x.y.z')).rejects.toBeInstanceOf(AppError);
  });
});

describe('verifyAvatarAccessToken', () => {
  const now = () => Math.floor(server.ctx.now().getTime() / 1000);

  it('accepts a fresh token signed by the key once, and refuses its reuse', async () => {
    const { encKey, key } = await addKey(alice, 'Signer');
    const token = await newAccessToken(encKey, 'avatar-1', now(), 120);
    const claims = await verifyAvatarAccessToken(server.ctx, alice.id, key.id, token);
    expect(claims.sub).toBe('avatar-1');
    await expect(verifyAvatarAccessToken(server.ctx, alice.id, key.id, token)).rejects.toMatchObject({ httpStatus: 401, code: 13 });
  });

  it('refuses an expired token', async () => {
    const { encKey, key } = await addKey(alice, 'Expiry');
    const token = await signEs256({ sub: 'avatar-1', jti: 'expired-1', iat: now() - 600, exp: now() - 120 }, encKey);
    await expect(verifyAvatarAccessToken(server.ctx, alice.id, key.id, token)).rejects.toMatchObject({ httpStatus: 401 });
  });

  it('refuses a token living longer than an hour', async () => {
    const { encKey, key } = await addKey(alice, 'Lifetime');
    const token = await signEs256({ sub: 'avatar-1', jti: 'long-1', iat: now(), exp: now() + 2 * 3600 }, encKey);
    await expect(verifyAvatarAccessToken(server.ctx, alice.id, key.id, token)).rejects.toMatchObject({ httpStatus: 401 });
  });

  it('refuses a token signed by another key', async () => {
    const { key } = await addKey(alice, 'Right key');
    const foreign = generateKeyPair();
    const token = await newAccessToken(foreign.privateKey, 'avatar-1', now(), 120);
    await expect(verifyAvatarAccessToken(server.ctx, alice.id, key.id, token)).rejects.toMatchObject({ httpStatus: 401 });
  });

  it('refuses alg none, HMAC and tampered claims', async () => {
    const { encKey, key } = await addKey(alice, 'Algorithms');
    const good = await newAccessToken(encKey, 'avatar-1', now(), 120);
    const [head, body, sig] = good.split('.') as [string, string, string];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${body}.`;
    const tampered = `${head}.${Buffer.from(JSON.stringify({ sub: 'avatar-2', jti: 'j', exp: now() + 60 })).toString('base64url')}.${sig}`;
    for (const t of [none, tampered, 'not-a-jwt', '']) {
      await expect(verifyAvatarAccessToken(server.ctx, alice.id, key.id, t)).rejects.toMatchObject({ httpStatus: 401 });
    }
  });

  it('signs preview tokens with the default key, which verify once', async () => {
    const { token, keyId } = await issueAvatarAccessToken(server.ctx, alice.id, 'avatar-9');
    const def = (await keys(alice)).find((k) => k.defaultKey)!;
    expect(keyId).toBe(def.id);
    expect((await verifyAvatarAccessToken(server.ctx, alice.id, keyId, token)).sub).toBe('avatar-9');
    await expect(verifyAvatarAccessToken(server.ctx, alice.id, keyId, token)).rejects.toBeInstanceOf(AppError);
    // Avatars name the default key 'Default'.
    const second = await issueAvatarAccessToken(server.ctx, alice.id, 'avatar-9');
    expect((await verifyAvatarAccessToken(server.ctx, alice.id, 'Default', second.token)).sub).toBe('avatar-9');
    const bobs = await issueAvatarAccessToken(server.ctx, bob.id, 'avatar-9');
    await expect(verifyAvatarAccessToken(server.ctx, alice.id, 'Default', bobs.token)).rejects.toBeInstanceOf(AppError);
  });
});
