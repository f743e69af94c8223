// The insight's queries over one avatar's conversations in a range [start, end): the figures, the
// days and the top questions from what the analysis stored per day (migration 0641: one row per
// day, one per question and day) plus the conversations not analysed yet, read from themselves;
// a page of conversations, optionally those whose messages contain a text (trigram index,
// migration 0642), and the batches an export streams. Every query takes the owner id.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { durationOf } from './insight-rollups.repository';

export interface Range {
  ownerId: string;
  avatarId: string;
  start: Date;
  end: Date;
}

/** The range's days as dates: [first, last + 1). */
export const days = (r: Range) => ({ first: r.start.toISOString().slice(0, 10), after: r.end.toISOString().slice(0, 10) });

/** The range's conversations not analysed yet (live, or ended moments ago): read from themselves. */
const pending = (r: Range) => sql`
  select (c.started_at at time zone 'UTC')::date as day, ${durationOf('c')} as d, c.turns, c.knowledge_turns, c.unanswered_turns
    from conversations c
   where c.owner_id = ${r.ownerId} and c.avatar_id = ${r.avatarId} and c.analysed_at is null
     and c.started_at >= ${r.start} and c.started_at < ${r.end}`;

/** The range's stored days (migration 0641). */
const stored = (r: Range) => sql`
  select day, conversations, seconds, durations, turns, knowledge_turns, unanswered_turns
    from insight_days
   where owner_id = ${r.ownerId} and avatar_id = ${r.avatarId} and day >= ${days(r).first}::date and day < ${days(r).after}::date`;

/** Conversations, total and median duration, turn counts: the stored days plus the pending conversations. */
export async function totals(db: Kysely<DB>, r: Range) {
  const res = await sql<{
    conversations: number;
    total_seconds: number | null;
    median_seconds: number | null;
    turns: number | null;
    knowledge_turns: number | null;
    unanswered_turns: number | null;
  }>`
    with s as (${stored(r)}), p as (${pending(r)})
    select (select coalesce(sum(conversations), 0) from s)::int + (select count(*) from p)::int as conversations,
           coalesce((select sum(seconds) from s), 0) + coalesce((select sum(d) from p), 0) as total_seconds,
           (select percentile_cont(0.5) within group (order by d)
              from (select unnest(durations) as d from s union all select d from p) x)::float8 as median_seconds,
           ((select coalesce(sum(turns), 0) from s) + (select coalesce(sum(turns), 0) from p))::int as turns,
           ((select coalesce(sum(knowledge_turns), 0) from s) + (select coalesce(sum(knowledge_turns), 0) from p))::int as knowledge_turns,
           ((select coalesce(sum(unanswered_turns), 0) from s) + (select coalesce(sum(unanswered_turns), 0) from p))::int as unanswered_turns
  `.execute(db);
  return res.rows[0]!;
}

export async function byDay(db: Kysely<DB>, r: Range) {
  const res = await sql<{ day: string; conversations: number; turns: number; unanswered_turns: number }>`
    select to_char(day::timestamp, 'YYYY-MM-DD') as day, sum(conversations)::int as conversations, sum(turns)::int as turns,
           sum(unanswered_turns)::int as unanswered_turns
      from (select day, conversations, turns, unanswered_turns from (${stored(r)}) s
            union all
            select day, 1, turns, unanswered_turns from (${pending(r)}) p) x
     group by day order by day
  `.execute(db);
  return res.rows;
}

/** `%`, `_` and `\` taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Matching messages the trigram index may hand over before a search reads the range instead. */
const SEARCH_HITS_MAX = 2000;

/** A search of the range's transcripts: `ids`, the conversations with a message containing `text`
 *  (found through the trigram index of migration 0642), or null when more than SEARCH_HITS_MAX
 *  messages match (a common word: the range read newest first fills a page sooner). */
export interface Search {
  text: string;
  ids: string[] | null;
}

export async function search(db: Kysely<DB>, r: Range, text: string, max = SEARCH_HITS_MAX): Promise<Search> {
  const rows = await db
    .selectFrom('conversation_messages')
    .select('conversation_id')
    .where('owner_id', '=', r.ownerId)
    .where('avatar_id', '=', r.avatarId)
    .where('role', '!=', 'wake_up')
    .where(sql<boolean>`text ilike ${`%${likeLiteral(text)}%`}`)
    .limit(max + 1)
    .execute();
  return { text, ids: rows.length > max ? null : [...new Set(rows.map((m) => m.conversation_id))] };
}

/** A page of the range's conversations, newest first; with a search, those with a message
 *  containing its text. `after`: the last one of the previous batch (the export reads on from
 *  it, not by offset). Each one's message count is taken for the page's rows only, not for
 *  those the offset skips. */
export async function conversationsPage(
  db: Kysely<DB>,
  r: Range,
  q: Search | undefined,
  limit: number,
  offset: number,
  after?: { startedAt: Date; id: string },
) {
  if (q?.ids && !q.ids.length) return [];
  let query = db
    .selectFrom('conversations as c')
    .select(['c.id', 'c.user_id', 'c.user_name', 'c.started_at', 'c.ended_at', 'c.end_reason', 'c.end_detail', 'c.summary'])
    .where('c.owner_id', '=', r.ownerId)
    .where('c.avatar_id', '=', r.avatarId)
    .where('c.started_at', '>=', r.start)
    .where('c.started_at', '<', r.end);
  if (q?.ids) query = query.where('c.id', 'in', q.ids);
  else if (q)
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('conversation_messages as s')
          .select('s.id')
          .whereRef('s.conversation_id', '=', 'c.id')
          .where('s.owner_id', '=', r.ownerId)
          .where('s.role', '!=', 'wake_up')
          .where(sql<boolean>`s.text ilike ${`%${likeLiteral(q.text)}%`}`)
          // Kept a per-conversation check (no semi-join through the trigram index): this path is
          // for a text most conversations contain.
          .offset(0),
      ),
    );
  if (after)
    query = query
      .where('c.started_at', '<=', after.startedAt) // the index's bound: each batch starts where the last ended
      .where((eb) =>
        eb.or([eb('c.started_at', '<', after.startedAt), eb.and([eb('c.started_at', '=', after.startedAt), eb('c.id', '<', after.id)])]),
      );
  const page = query.orderBy('c.started_at', 'desc').orderBy('c.id', 'desc').limit(limit).offset(offset);
  return db
    .selectFrom(page.as('p'))
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('conversation_messages as m')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('m.conversation_id', '=', 'p.id')
        .where('m.role', '!=', 'wake_up')
        .as('messages'),
    )
    .orderBy('p.started_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
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
