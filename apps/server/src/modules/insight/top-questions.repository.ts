// The top questions' queries (decision 416): the counts stored per question and day (migration
// 0641), each question's count of all time (the bound), and the messages of the conversations
// not analysed yet. Every query takes the owner id.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { questionKey } from './insight-rollups.repository';
import { days, type Range } from './insight.repository';

export interface Counted {
  key: string;
  text: string;
  count: number;
}

const inRange = (r: Range) =>
  sql`q.owner_id = ${r.ownerId} and q.avatar_id = ${r.avatarId} and q.day >= ${days(r).first}::date and q.day < ${days(r).after}::date`;

/** Each visitor message of the range's conversations not analysed yet (live, or ended moments ago). */
const pendingMessages = (r: Range) => sql`
  select x.k as key, m.text, 1 as n
    from conversations c
    join conversation_messages m on m.conversation_id = c.id
   cross join lateral (select ${questionKey('m.text')} as k) x
   where c.owner_id = ${r.ownerId} and c.avatar_id = ${r.avatarId} and c.analysed_at is null
     and m.owner_id = ${r.ownerId} and m.avatar_id = ${r.avatarId} and m.role = 'user' and m.at >= ${r.start} and m.at < ${r.end}
     and x.k <> ''`;

/** The questions of the range's pending conversations, with their whole count in the range (theirs and the stored). */
export async function pendingQuestions(db: Kysely<DB>, r: Range): Promise<Counted[]> {
  const res = await sql<Counted>`
    with p as (${pendingMessages(r)})
    select key, min(text) as text, sum(n)::int as count from (
      select key, text, n from p
      union all
      select q.key, q.text, q.asked from insight_questions q where ${inRange(r)} and q.key in (select key from p)
    ) x group by key`.execute(db);
  return res.rows;
}

/** The range's most asked, from every stored row of its days and its pending conversations (ties: by key, in the database's order). */
export async function topOfRange(db: Kysely<DB>, r: Range, limit: number): Promise<Counted[]> {
  const res = await sql<Counted>`
    select key, min(text) as text, sum(n)::int as count from (
      select q.key, q.text, q.asked as n from insight_questions q where ${inRange(r)}
      union all
      ${pendingMessages(r)}
    ) x group by key order by sum(n) desc, key limit ${limit}`.execute(db);
  return res.rows;
}

export interface Step {
  /** The best `limit` so far, in order. */
  top: Counted[];
  /** Keys read from the bound's list in this step; the last one's place (to read on from). */
  read: number;
  last: { key: string; asked: number } | null;
  /** Whether the last key read sorts at or after the last of `top` (ties are broken by key). */
  lastAtOrAfterTop: boolean;
}

/**
 * One step of the walk down the avatar's questions by their count of all time (then key): the
 * next `batch` after `after`, leaving out `skip`, counted in the range and ranked with `top`.
 */
export async function walkStep(
  db: Kysely<DB>,
  r: Range,
  o: { top: Counted[]; skip: string[]; after: { key: string; asked: number } | null; batch: number; limit: number },
): Promise<Step> {
  const json = (rows: unknown) => sql`${JSON.stringify(rows)}::jsonb`;
  const after = o.after ? sql`and k.asked <= ${o.after.asked} and (k.asked < ${o.after.asked} or k.key > ${o.after.key})` : sql``;
  const res = await sql<{
    top: Counted[] | string | null;
    read: number;
    last_key: string | null;
    last_asked: number | null;
    at_or_after: boolean | null;
  }>`
    with top as (
      select * from jsonb_to_recordset(${json(o.top)}) as t(key text, text text, count int)
    ), batch as (
      select k.key, k.asked from insight_question_keys k
       where k.owner_id = ${r.ownerId} and k.avatar_id = ${r.avatarId} ${after}
       order by k.asked desc, k.key limit ${o.batch}
    ), counted as (
      select q.key, min(q.text) as text, sum(q.asked)::int as count
        from batch b join insight_questions q on q.key = b.key and ${inRange(r)}
       where b.key not in (select value from jsonb_array_elements_text(${json(o.skip)}))
       group by q.key
    ), ranked as (
      select key, text, count from (select * from top union all select * from counted) x order by count desc, key limit ${o.limit}
    ), last as (
      select key, asked from batch order by asked, key desc limit 1
    )
    select (select json_agg(json_build_object('key', key, 'text', text, 'count', count) order by count desc, key) from ranked) as top,
           (select count(*)::int from batch) as read,
           (select key from last) as last_key, (select asked from last) as last_asked,
           (select key from last) >= (select key from ranked order by count, key desc limit 1) as at_or_after
  `.execute(db);
  const row = res.rows[0]!;
  const top = typeof row.top === 'string' ? (JSON.parse(row.top) as Counted[]) : (row.top ?? []);
  return {
    top,
    read: Number(row.read),
    last: row.last_key === null ? null : { key: row.last_key, asked: Number(row.last_asked) },
    lastAtOrAfterTop: row.at_or_after === true,
  };
}
