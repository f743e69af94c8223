// Knowledge gaps and the per-conversation analysis columns (migration 0640). Every query takes
// the owner id; the analysis's own writes take the conversation it claimed.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { GapReason, GapStatus } from '@parla/shared/schemas/insight';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

/** Ended conversations of an avatar not analysed yet, ended before `before` (their transcript is written). */
export async function pendingConversations(db: Q, ownerId: string, avatarId: string, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('conversations')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .where('analysed_at', 'is', null)
    .where('ended_at', 'is not', null)
    .where('ended_at', '<', before)
    .orderBy('ended_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export function storedMessages(db: Q, ownerId: string, conversationId: string) {
  return db
    .selectFrom('conversation_messages')
    .select(['role', 'text', 'at', 'knowledge_hits'])
    .where('owner_id', '=', ownerId)
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();
}

/** The text-search configuration of the avatar's first linked collection (its language), if any. */
export async function avatarLanguage(db: Q, ownerId: string, avatarId: string) {
  return db
    .selectFrom('avatar_knowledge_collections as l')
    .innerJoin('knowledge_collections as c', 'c.id', 'l.collection_id')
    .select(['c.language', 'c.detected_language'])
    .where('l.avatar_id', '=', avatarId)
    .where('c.owner_id', '=', ownerId)
    .orderBy('l.position')
    .limit(1)
    .executeTakeFirst();
}

/** Each text's lexemes under a configuration: the knowledge search's analysis (stemming, stop words). */
export async function lexemesOf(db: Q, config: string, texts: string[]): Promise<string[][]> {
  if (!texts.length) return [];
  const values = sql.join(texts.map((t, i) => sql`(${i}::int, ${t}::text)`));
  const res = await sql<{ i: number; lexemes: string[] | string }>`
    select v.i, tsvector_to_array(to_tsvector(${config}::regconfig, v.t)) as lexemes from (values ${values}) as v(i, t)
  `.execute(db);
  const out: string[][] = texts.map(() => []);
  for (const r of res.rows) out[Number(r.i)] = parseArray(r.lexemes);
  return out;
}

/** A text[] as either driver returns it (pg: an array; some paths: the '{a,b}' literal). */
function parseArray(v: string[] | string): string[] {
  if (Array.isArray(v)) return v;
  const inner = v.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((s) => s.replace(/^"|"$/g, '')) : [];
}

/** The questions of the avatar's open and dismissed gaps, newest first (the grouping reads them). */
export function gapQuestionsToMatch(db: Q, ownerId: string, avatarId: string, limit: number) {
  return db
    .selectFrom('knowledge_gap_questions as q')
    .innerJoin('knowledge_gaps as g', 'g.id', 'q.gap_id')
    .select(['q.id', 'q.gap_id', 'q.text', 'q.lexemes', 'q.ts_config', 'g.status', 'g.last_at'])
    .where('q.owner_id', '=', ownerId)
    .where('q.avatar_id', '=', avatarId)
    .where('g.status', 'in', ['open', 'dismissed'])
    .orderBy('q.at', 'desc')
    .limit(limit)
    .execute();
}

export async function createGap(db: Q, row: { ownerId: string; avatarId: string; question: string; at: Date }): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('knowledge_gaps')
    .values({ id, owner_id: row.ownerId, avatar_id: row.avatarId, question: row.question, first_at: row.at, last_at: row.at })
    .execute();
  return id;
}

export async function addGapQuestion(
  db: Q,
  gapId: string,
  q: {
    ownerId: string;
    avatarId: string;
    conversationId: string;
    text: string;
    lexemes: string[];
    config: string;
    reason: GapReason;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('knowledge_gap_questions')
    .values({
      id: randomUUID(),
      gap_id: gapId,
      owner_id: q.ownerId,
      avatar_id: q.avatarId,
      conversation_id: q.conversationId,
      text: q.text,
      lexemes: q.lexemes.join(' '),
      ts_config: q.config,
      reason: q.reason,
      at: q.at,
    })
    .execute();
  await sql`update knowledge_gaps set asked = asked + 1, last_at = greatest(last_at, ${q.at}), first_at = least(first_at, ${q.at})
            where id = ${gapId}`.execute(db);
}

export async function setGapStatus(
  db: Q,
  ownerId: string,
  avatarId: string,
  gapId: string,
  from: GapStatus[],
  patch: { status: GapStatus; resolvedBy?: 'answered' | 'written' | null; itemId?: string | null; at: Date },
): Promise<boolean> {
  const res = await db
    .updateTable('knowledge_gaps')
    .set({
      status: patch.status,
      resolved_by: patch.resolvedBy ?? null,
      item_id: patch.itemId ?? null,
      resolved_at: patch.status === 'resolved' ? patch.at : null,
    })
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .where('id', '=', gapId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Lexemes made again under the avatar's configuration now (its collection's language changed). */
export async function relexGapQuestions(db: Q, rows: { id: string; lexemes: string[] }[], config: string): Promise<void> {
  for (const r of rows)
    await db
      .updateTable('knowledge_gap_questions')
      .set({ lexemes: r.lexemes.join(' '), ts_config: config })
      .where('id', '=', r.id)
      .execute();
}

export function findGap(db: Q, ownerId: string, avatarId: string, gapId: string) {
  return db
    .selectFrom('knowledge_gaps')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .where('id', '=', gapId)
    .executeTakeFirst();
}

export function listGaps(db: Q, ownerId: string, avatarId: string, status: GapStatus, limit: number, offset: number) {
  return db
    .selectFrom('knowledge_gaps')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .where('status', '=', status)
    .orderBy('asked', 'desc')
    .orderBy('last_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countGaps(db: Q, ownerId: string, avatarId: string, status: GapStatus): Promise<number> {
  const row = await db
    .selectFrom('knowledge_gaps')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .where('status', '=', status)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The latest `perGap` questions of each gap, newest first. */
export async function examplesOf(db: Q, ownerId: string, gapIds: string[], perGap: number) {
  if (!gapIds.length) return [];
  const res = await sql<{ gap_id: string; text: string; at: Date | string; reason: GapReason }>`
    select gap_id, text, at, reason from (
      select q.gap_id, q.text, q.at, q.reason, row_number() over (partition by q.gap_id order by q.at desc, q.id) as n
        from knowledge_gap_questions q
       where q.owner_id = ${ownerId} and q.gap_id in (${sql.join(gapIds)})
    ) x where n <= ${perGap} order by gap_id, at desc
  `.execute(db);
  return res.rows;
}

export function linkedCollections(db: Q, ownerId: string, avatarId: string) {
  return db
    .selectFrom('avatar_knowledge_collections as l')
    .innerJoin('knowledge_collections as c', 'c.id', 'l.collection_id')
    .select(['c.id', 'c.name'])
    .where('l.avatar_id', '=', avatarId)
    .where('c.owner_id', '=', ownerId)
    .orderBy('l.position')
    .execute();
}
