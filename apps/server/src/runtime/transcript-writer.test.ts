// The transcripts' writer (issue 37): messages wait for their batch, then go in one statement per
// ROWS_PER_STATEMENT rows, in order; a row the database refuses (its avatar was deleted meanwhile) is logged and
// does not take the rest of its batch with it. Real database (PGlite, or PostgreSQL).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { addMessages } from '../modules/conversations/transcripts.repository';
import type { TranscriptRow } from './conversation/ports';
import { ROWS_PER_STATEMENT, TranscriptWriter } from './transcript-writer';

let server: TestServer;
const owner = randomUUID();
const avatar = randomUUID();

beforeAll(async () => {
  server = await createTestServer();
  const db = server.ctx.db;
  await sql`insert into users (id, email, password_hash, first_name, last_name, subscription_type, created_at, updated_at)
    values (${owner}, ${`${owner}@example.com`}, 'x', 'T', 'W', 4, now(), now())`.execute(db);
  await sql`insert into avatars (id, owner_id, name, dh_type, appearance_id, token, created_at, updated_at)
    values (${avatar}, ${owner}, 'Writer', '2d', 'a', ${`token-${avatar}`}, now(), now())`.execute(db);
});

afterAll(async () => {
  await server.close();
});

const row = (conversationId: string, seq: number, avatarId: string = avatar): TranscriptRow => ({
  conversationId,
  ownerId: owner,
  avatarId,
  seq,
  role: seq % 2 ? 'user' : 'assistant',
  text: `message ${seq}`,
  at: new Date(),
  interrupted: false,
});

const written = (conversationId: string) =>
  server.ctx.db
    .selectFrom('conversation_messages')
    .select(['seq', 'text'])
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();

describe('the transcripts writer', () => {
  it('writes nothing until its batch is due, then every message in order, more than one statement of rows', async () => {
    const failed: TranscriptRow[] = [];
    const statements: number[] = [];
    const many = (rows: TranscriptRow[]) => (statements.push(rows.length), addMessages(server.ctx.db, rows));
    const writer = new TranscriptWriter({ many }, (_e, r) => failed.push(r), 60_000);
    const id = randomUUID();
    for (let seq = 1; seq <= 700; seq++) writer.add(row(id, seq));
    expect(await written(id)).toHaveLength(0);
    await writer.flush();
    const rows = await written(id);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 700 }, (_, i) => i + 1));
    expect(failed).toEqual([]);
    // Short statements: on PGlite a waiting request goes between two of them.
    expect(statements).toHaveLength(Math.ceil(700 / ROWS_PER_STATEMENT));
    expect(Math.max(...statements)).toBe(ROWS_PER_STATEMENT);
  });

  it('writes a batch on its own after the flush delay', async () => {
    const writer = new TranscriptWriter({ many: (rows) => addMessages(server.ctx.db, rows) }, () => undefined, 50);
    const id = randomUUID();
    writer.add(row(id, 1));
    writer.add(row(id, 2));
    await expect.poll(async () => (await written(id)).length).toBe(2);
  });

  it("keeps the rest of a batch when one message's avatar is gone, and reports that one", async () => {
    const failed: TranscriptRow[] = [];
    const writer = new TranscriptWriter({ many: (rows) => addMessages(server.ctx.db, rows) }, (_e, r) => failed.push(r), 60_000);
    const id = randomUUID();
    writer.add(row(id, 1));
    writer.add(row(randomUUID(), 1, 'deleted-avatar'));
    writer.add(row(id, 2));
    await writer.flush();
    expect((await written(id)).map((r) => r.text)).toEqual(['message 1', 'message 2']);
    expect(failed.map((r) => r.avatarId)).toEqual(['deleted-avatar']);
  });
});
