// The insight's queries over one avatar's conversations in a range [start, end): the figures and
// the days from the conversation records (their analysed turn counts, migration 0640; index
// conversations_avatar_time_idx), the top questions from the visitors' messages (partial index
// conversation_messages_avatar_user_idx), a page of conversations, optionally those whose
// messages contain a text, and the batches an export streams. Every query takes the owner id.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export interface Range {
  ownerId: string;
  avatarId: string;
  start: Date;
  end: Date;
}

export async function totals(db: Kysely<DB>, r: Range) {
  const res = await sql<{
    conversations: number;
    total_seconds: number | null;
    median_seconds: number | null;
    turns: number | null;
    knowledge_turns: number | null;
    unanswered_turns: number | null;
  }>`
    select count(*)::int as conversations,
           sum(extract(epoch from (coalesce(ended_at, last_seen_at) - started_at)))::float8 as total_seconds,
           percentile_cont(0.5) within group (order by extract(epoch from (coalesce(ended_at, last_seen_at) - started_at)))::float8 as median_seconds,
           sum(turns)::int as turns, sum(knowledge_turns)::int as knowledge_turns, sum(unanswered_turns)::int as unanswered_turns
      from conversations
     where owner_id = ${r.ownerId} and avatar_id = ${r.avatarId} and started_at >= ${r.start} and started_at < ${r.end}
  `.execute(db);
  return res.rows[0]!;
}

export async function byDay(db: Kysely<DB>, r: Range) {
  const res = await sql<{ day: string; conversations: number; turns: number; unanswered_turns: number }>`
    select to_char(date_trunc('day', started_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
           count(*)::int as conversations, sum(turns)::int as turns, sum(unanswered_turns)::int as unanswered_turns
      from conversations
     where owner_id = ${r.ownerId} and avatar_id = ${r.avatarId} and started_at >= ${r.start} and started_at < ${r.end}
     group by 1 order by 1
  `.execute(db);
  return res.rows;
}

/** The visitors' most asked messages, compared lower-cased with punctuation and spacing folded. */
export async function topQuestions(db: Kysely<DB>, r: Range, limit: number) {
  const res = await sql<{ text: string; count: number }>`
    select min(text) as text, count(*)::int as count from (
      select m.text, trim(regexp_replace(lower(m.text), '[^[:alnum:]]+', ' ', 'g')) as k
        from conversation_messages m
       where m.owner_id = ${r.ownerId} and m.avatar_id = ${r.avatarId} and m.role = 'user' and m.at >= ${r.start} and m.at < ${r.end}
    ) x where k <> '' group by k order by count(*) desc, k limit ${limit}
  `.execute(db);
  return res.rows;
}

/** `%`, `_` and `\` taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the range's conversations, newest first; with `q`, those with a message containing it.
 *  `after`: the last one of the previous batch (the export reads on from it, not by offset). */
export function conversationsPage(
  db: Kysely<DB>,
  r: Range,
  q: string | undefined,
  limit: number,
  offset: number,
  after?: { startedAt: Date; id: string },
) {
  let query = db
    .selectFrom('conversations as c')
    .select(['c.id', 'c.user_id', 'c.user_name', 'c.started_at', 'c.ended_at', 'c.end_reason', 'c.end_detail', 'c.summary'])
    .select((eb) =>
      eb
        .selectFrom('conversation_messages as m')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.role', '!=', 'wake_up')
        .as('messages'),
    )
    .where('c.owner_id', '=', r.ownerId)
    .where('c.avatar_id', '=', r.avatarId)
    .where('c.started_at', '>=', r.start)
    .where('c.started_at', '<', r.end);
  if (q)
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('conversation_messages as s')
          .select('s.id')
          .whereRef('s.conversation_id', '=', 'c.id')
          .where('s.owner_id', '=', r.ownerId)
          .where('s.role', '!=', 'wake_up')
          .where(sql<boolean>`s.text ilike ${`%${likeLiteral(q)}%`}`),
      ),
    );
  if (after)
    query = query.where((eb) =>
      eb.or([eb('c.started_at', '<', after.startedAt), eb.and([eb('c.started_at', '=', after.startedAt), eb('c.id', '<', after.id)])]),
    );
  return query.orderBy('c.started_at', 'desc').orderBy('c.id', 'desc').limit(limit).offset(offset).execute();
}

export function messagesOfConversations(db: Kysely<DB>, ownerId: string, ids: string[]) {
  return db
    .selectFrom('conversation_messages')
    .select(['conversation_id', 'seq', 'role', 'text', 'at', 'interrupted'])
    .where('owner_id', '=', ownerId)
    .where('conversation_id', 'in', ids)
    .where('role', '!=', 'wake_up')
    .orderBy('conversation_id')
    .orderBy('seq')
    .execute();
}
