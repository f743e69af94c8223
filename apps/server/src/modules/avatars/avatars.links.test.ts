import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { linkedCollectionIds, linkedFunctionIds, linkedKeyId } from './avatar-links.repository';
import { save } from '../../../test/avatar-requests';

let server: TestServer;
let upper: CatalogueAvatar;

beforeAll(async () => {
  server = await createTestServer();
  const res = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  upper = (res.json().avatars as CatalogueAvatar[]).find((a) => a.type === '2d')!;
});
afterAll(() => server.close());

async function create(account: TestAccount, extra: Record<string, unknown> = {}): Promise<Avatar> {
  const res = await save(server, account.token, { name: 'Linked', dhType: upper.type, appearanceId: upper.id, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent as Avatar;
}

/** What the database holds for the avatar's links (migration 0220). */
async function stored(id: string) {
  const db = server.ctx.db;
  const row = await db.selectFrom('avatars').select(['custom_data', 'enc_key_id']).where('id', '=', id).executeTakeFirstOrThrow();
  return {
    collectionIds: await linkedCollectionIds(db, id),
    functions: await linkedFunctionIds(db, id),
    keyId: await linkedKeyId(db, id),
    option: row.enc_key_id,
    customData: row.custom_data,
  };
}

async function collection(account: TestAccount, name: string): Promise<string> {
  const { jwtToken } = (await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token })).json();
  const res = await server.inject({
    method: 'POST',
    url: '/kb/v1/collections',
    appKey: null,
    headers: { authorization: `Bearer ${jwtToken}` },
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

function es256(privateKeyPem: string, sub: string): string {
  const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const head = b64(JSON.stringify({ alg: 'ES256', typ: 'JWT' }));
  const body = b64(JSON.stringify({ sub, jti: randomUUID(), iat: now, exp: now + 120 }));
  const sig = sign('sha256', Buffer.from(`${head}.${body}`), { key: createPrivateKey(privateKeyPem), dsaEncoding: 'ieee-p1363' });
  return `${head}.${body}.${b64(sig)}`;
}

describe('links to knowledge, functions and encryption keys', () => {
  it('keeps only the owner’s existing collections, and a deleted collection leaves the avatar', async () => {
    const owner = await createCustomer(server);
    const other = await createCustomer(server, 'other');
    const mine = await collection(owner, 'Manuals');
    const theirs = await collection(other, 'Secrets');
    const a = await create(owner);
    const res = await save(server, owner.token, { ...a, customData: { ...a.customData, collection_ids: [mine, theirs, 'gone'] } });
    expect(res.json().agent.customData.collection_ids).toEqual([mine]);
    const { jwtToken } = (await server.inject({ method: 'GET', url: '/api/token/jwt', token: owner.token })).json();
    const del = await server.inject({
      method: 'DELETE',
      url: `/kb/v1/collections/${mine}`,
      appKey: null,
      headers: { authorization: `Bearer ${jwtToken}` },
    });
    expect(del.statusCode).toBe(200);
    expect((await stored(a.id)).collectionIds).toEqual([]);
    expect(
      (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token })).json().agent.customData.collection_ids,
    ).toEqual([]);
  });

  it('links approved functions only, and a deleted function leaves the avatar', async () => {
    const owner = await createCustomer(server);
    const admin = await createAdmin(server);
    const made = await server.inject({
      method: 'POST',
      url: '/api/functions',
      token: owner.token,
      payload: { functions: [{ action: 'new', name: 'lookup', code: 'def lookup(x):\n  return x\n' }] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const fn = made.json().functions.find((f: { name: string; template?: boolean }) => f.name === 'lookup' && !f.template);
    const a = await create(owner);
    const pending = await save(server, owner.token, { ...a, functions: [fn.id] });
    expect(pending.json().agent.functions).toEqual([]);
    const ok = await server.inject({
      method: 'POST',
      url: '/api/admin/function_decision',
      token: admin.token,
      payload: { id: fn.id, approve: true, codeHash: fn.codeHash },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const b = pending.json().agent as Avatar;
    const approved = await save(server, owner.token, { ...b, functions: [fn.id] });
    expect(approved.json().agent.functions).toEqual([fn.id]);
    await server.inject({
      method: 'POST',
      url: '/api/functions',
      token: owner.token,
      payload: { functions: [{ action: 'delete', id: fn.id }] },
    });
    expect((await stored(a.id)).functions).toEqual([]);
  });

  it('uses an owned key, falls back to Default for another one, and returns to Default when the key is deleted', async () => {
    const owner = await createCustomer(server);
    const added = await server.inject({ method: 'POST', url: '/api/enc/add', token: owner.token, payload: { name: 'Site key' } });
    expect(added.statusCode, added.body).toBe(200);
    const { key, encKey: privateKey } = added.json();
    const a = await create(owner);
    const withKey = (await save(server, owner.token, { ...a, encKeyId: key.id })).json().agent as Avatar;
    expect(withKey.encKeyId).toBe(key.id);

    // The public view takes a token signed by the key, without using it up (the conversation does).
    const token = es256(privateKey, a.id);
    for (let i = 0; i < 2; i++) {
      const view = await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${token}`, appKey: null });
      expect(view.statusCode).toBe(200);
    }
    const otherSub = await server.inject({
      method: 'GET',
      url: `/api/public/avatar/${a.id}?token=${es256(privateKey, 'someone-else')}`,
      appKey: null,
    });
    expect(otherSub.statusCode).toBe(401);

    const unknown = (await save(server, owner.token, { ...withKey, encKeyId: 'not-a-key-of-mine' })).json().agent as Avatar;
    expect(unknown.encKeyId).toBe('Default');
    await save(server, owner.token, { ...unknown, encKeyId: key.id });
    const del = await server.inject({ method: 'POST', url: '/api/enc/del', token: owner.token, payload: { id: key.id, mode: 'delete' } });
    expect(del.statusCode, del.body).toBe(200);
    const after = await stored(a.id);
    expect(after.keyId).toBeNull();
    expect(after.option).toBe('Default');
  });
});
