// Migration 0220 moves the jsonb links of existing avatars into join tables. Run here by hand on a
// migrated database: down (back to the jsonb shape), rows written the old way, then up again.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { newId } from '../lib/tokens';
import { down, up } from './migrations/0220-avatar-links';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function user(): Promise<string> {
  const id = newId();
  await sql`insert into users (id, email, password_hash, first_name, last_name) values (${id}, ${`${id}@parla.test`}, 'x', 'O', 'W')`.execute(
    server.ctx.db,
  );
  return id;
}

describe('migration 0220 (avatar links as tables)', () => {
  it('moves the owner’s existing links, drops dangling and foreign ones, and keeps the order', async () => {
    const db = server.ctx.db;
    const [owner, other] = [await user(), await user()];
    const [c1, c2, foreign] = [newId(), newId(), newId()];
    for (const [id, o] of [
      [c1, owner],
      [c2, owner],
      [foreign, other],
    ] as const) {
      await sql`insert into knowledge_collections (id, owner_id, name) values (${id}, ${o}, ${id})`.execute(db);
    }
    const fn = newId();
    await sql`insert into functions (id, owner_id, name, code, code_sha256) values (${fn}, ${owner}, 'f', 'def f(): pass', 'h')`.execute(
      db,
    );
    const key = newId();
    await sql`insert into encryption_keys (id, owner_id, name, public_key_pem) values (${key}, ${owner}, 'k', 'pem')`.execute(db);

    await down(db as unknown as Kysely<unknown>);
    const avatar = newId();
    const gone = newId();
    await sql`
      insert into avatars (id, owner_id, name, dh_type, appearance_id, token, enc_key_id, daily_limits, functions, custom_data, avatar_json, client_json, created_at, updated_at)
      values (${avatar}, ${owner}, 'Old', '2d', 'a1', 't', ${key}, '{}', ${JSON.stringify([fn, gone])}::jsonb,
        ${JSON.stringify({ collection_ids: [c2, gone, foreign, c1], words_per_sec: 3 })}::jsonb, '{}', '{}', now(), now())`.execute(db);
    const noKey = newId();
    await sql`
      insert into avatars (id, owner_id, name, dh_type, appearance_id, token, enc_key_id, daily_limits, functions, custom_data, avatar_json, client_json, created_at, updated_at)
      values (${noKey}, ${owner}, 'Deleted key', '2d', 'a1', 't2', ${gone}, '{}', '"not a list"'::jsonb, '{"collection_ids": 7}'::jsonb, '{}', '{}', now(), now())`.execute(
      db,
    );
    await up(db as unknown as Kysely<unknown>);

    const collections = await db
      .selectFrom('avatar_knowledge_collections')
      .select('collection_id')
      .where('avatar_id', '=', avatar)
      .orderBy('position')
      .execute();
    expect(collections.map((r) => r.collection_id)).toEqual([c2, c1]);
    const functions = await db.selectFrom('avatar_functions').select('function_id').where('avatar_id', '=', avatar).execute();
    expect(functions.map((r) => r.function_id)).toEqual([fn]);
    const keys = await db
      .selectFrom('avatar_encryption_keys')
      .select(['avatar_id', 'key_id'])
      .where('avatar_id', 'in', [avatar, noKey])
      .execute();
    expect(keys).toEqual([{ avatar_id: avatar, key_id: key }]);
    const rows = await db
      .selectFrom('avatars')
      .select(['id', 'enc_key_id', 'custom_data'])
      .where('id', 'in', [avatar, noKey])
      .orderBy('name', 'desc')
      .execute();
    expect(rows.map((r) => r.enc_key_id)).toEqual(['Default', 'Default']);
    expect(rows[0]!.custom_data).toEqual({ words_per_sec: 3 });
  });
});
