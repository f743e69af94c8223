import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_LIST_PAGE, AVATAR_LIST_PAGE_MAX } from '@parla/shared/limits';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import type { Avatar, AvatarCardItem, AvatarListResponse } from '@parla/shared/schemas/avatar';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { newId, newToken } from '../../lib/tokens';
import { fileOf, save } from '../../../test/avatar-requests';

let server: TestServer;
let upper: CatalogueAvatar;

beforeAll(async () => {
  server = await createTestServer();
  upper = ((await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as CatalogueAvatar[]).find(
    (a) => a.type === '2d',
  )!;
});
afterAll(() => server.close());

const CARD_KEYS = [
  'appearanceId',
  'avatarPhotoURL',
  'created',
  'dhType',
  'dhTypeName',
  'encKeyId',
  'id',
  'name',
  'nlpEngine',
  'nlpEngineName',
  'stillURL',
  'token',
  'updated',
  'usersCount',
];

async function create(
  account: TestAccount,
  extra: Record<string, unknown> = {},
  uploads: Parameters<typeof save>[3] = [],
): Promise<Avatar> {
  const res = await save(server, account.token, { name: 'Nova', dhType: upper.type, appearanceId: upper.id, ...extra }, uploads);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent as Avatar;
}

/** `n` more avatars of the owner, copies of `source`, each a second older than the one before. */
async function copies(owner: TestAccount, source: Avatar, n: number): Promise<string[]> {
  const row = await server.ctx.db.selectFrom('avatars').selectAll().where('id', '=', source.id).executeTakeFirstOrThrow();
  const base = new Date(source.created).getTime();
  const json = {
    daily_limits: JSON.stringify(row.daily_limits),
    allowed_origins: JSON.stringify(row.allowed_origins),
    custom_data: JSON.stringify(row.custom_data),
    avatar_json: JSON.stringify(row.avatar_json),
    client_json: JSON.stringify(row.client_json),
  };
  const rows = Array.from({ length: n }, (_v, i) => ({
    ...row,
    ...json,
    id: newId(),
    token: newToken(),
    name: `Copy ${i}`,
    avatar_photo_id: null,
    own_model: null,
    created_at: new Date(base - (i + 1) * 1000),
  }));
  for (let i = 0; i < rows.length; i += 200)
    await server.ctx.db
      .insertInto('avatars')
      .values(rows.slice(i, i + 200))
      .execute();
  expect(owner.id).toBe(row.owner_id);
  return rows.map((r) => r.id);
}

const list = async (owner: TestAccount, query = '') => {
  const res = await server.inject({ method: 'GET', url: `/api/avatar/list${query}`, token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AvatarListResponse;
};

describe('the avatar list', () => {
  it('carries what the cards show and nothing else: no secrets, no configuration', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner, { restApiKey: 'rest-key-0123456789abcdef' }, [{ field: 'avatarPhoto', data: fileOf('png', 512) }]);
    const res = await list(owner);
    expect(res.nextOffset).toBeNull();
    const card = res.agents[0]!;
    expect(Object.keys(card).sort()).toEqual(CARD_KEYS);
    expect(card).toEqual({
      id: a.id,
      name: a.name,
      nlpEngine: a.nlpEngine,
      nlpEngineName: a.nlpEngineName,
      dhType: a.dhType,
      dhTypeName: a.dhTypeName,
      appearanceId: a.appearanceId,
      usersCount: 0,
      created: a.created,
      updated: a.updated,
      avatarPhotoURL: a.avatarPhotoURL,
      stillURL: null,
      token: a.token,
      encKeyId: a.encKeyId,
    } satisfies AvatarCardItem);
    expect(card.avatarPhotoURL).toMatch(/^\/config-files\/avatars\//);
  });

  it('answers the whole avatar by id, its secrets masked, for the editor', async () => {
    const owner = await createCustomer(server);
    const a = await create(owner, { restApiKey: 'rest-key-0123456789abcdef' });
    const res = await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'OK',
      agent: { id: a.id, restApiKey: '••••cdef', customData: a.customData, avatarJson: a.avatarJson },
    });
    expect(res.body).not.toContain('rest-key-0123456789abcdef');
  });

  it("does not answer another account's avatar by id, nor an id that names no avatar", async () => {
    const owner = await createCustomer(server);
    const other = await createCustomer(server);
    const a = await create(owner);
    expect((await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: other.token })).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/api/avatar/not-an-avatar', token: owner.token })).statusCode).toBe(404);
    expect([400, 414]).toContain(
      (await server.inject({ method: 'GET', url: `/api/avatar/${'x'.repeat(101)}`, token: owner.token })).statusCode,
    );
    expect((await server.inject({ method: 'GET', url: `/api/avatar/${a.id}` })).statusCode).toBe(401);
  });

  it('pages a long list newest first, every avatar once, each page saying where the next begins', async () => {
    const owner = await createCustomer(server);
    const newest = await create(owner);
    const older = await copies(owner, newest, 449);
    const first = await list(owner);
    expect(first.agents).toHaveLength(AVATAR_LIST_PAGE);
    expect(first.nextOffset).toBe(AVATAR_LIST_PAGE);
    const seen = [...first.agents];
    let next = first.nextOffset;
    while (next !== null) {
      const page = await list(owner, `?offset=${next}&limit=${AVATAR_LIST_PAGE}`);
      seen.push(...page.agents);
      next = page.nextOffset;
    }
    expect(seen.map((c) => c.id)).toEqual([newest.id, ...older]);
    expect((await list(owner, '?limit=1000')).agents).toHaveLength(450);
  });

  it('searches the avatar id over every avatar of the account, in any case, not only the first page', async () => {
    const owner = await createCustomer(server);
    const other = await createCustomer(server);
    const newest = await create(owner);
    const older = await copies(owner, newest, 300);
    const oldest = older.at(-1)!;
    const found = await list(owner, `?search=${oldest.slice(0, 13).toUpperCase()}`);
    expect(found.agents.map((c) => c.id)).toEqual([oldest]);
    expect((await list(other, `?search=${oldest}`)).agents).toEqual([]);
    // LIKE's wildcards are plain characters.
    expect((await list(owner, '?search=%25')).agents).toEqual([]);
    expect((await list(owner, '?search=_')).agents).toEqual([]);
    const dash = await list(owner, '?search=-&limit=1000');
    expect(dash.agents).toHaveLength(301);
    expect(dash.nextOffset).toBeNull();
  });

  it('refuses a page larger than the most one may hold, and a negative offset, with messages', async () => {
    const owner = await createCustomer(server);
    const big = await server.inject({ method: 'GET', url: `/api/avatar/list?limit=${AVATAR_LIST_PAGE_MAX + 1}`, token: owner.token });
    expect(big.statusCode).toBe(400);
    expect(big.json().errors).toEqual([`limit must be at most ${AVATAR_LIST_PAGE_MAX}`]);
    const neg = await server.inject({ method: 'GET', url: '/api/avatar/list?offset=-1', token: owner.token });
    expect(neg.statusCode).toBe(400);
    const word = await server.inject({ method: 'GET', url: '/api/avatar/list?limit=many', token: owner.token });
    expect(word.statusCode).toBe(400);
  });
});
