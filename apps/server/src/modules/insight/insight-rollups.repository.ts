// What the insight sums, written when a conversation is analysed (migration 0641, decision 416):
// the claim of a conversation adds it to its day (count, duration) and its visitors' messages to
// the day's question counts (and each question's count of all time) in the same statement, so a reader sees a conversation either among
// the pending ones (read from the conversation itself) or in the rollups, never in both or
// neither; its turn counts follow when the transcript has been classified (as before, 0 until then).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

/** The top questions' grouping key: lower-cased, punctuation and spacing folded. */
export const questionKey = (column: string) => sql<string>`trim(regexp_replace(lower(${sql.ref(column)}), '[^[:alnum:]]+', ' ', 'g'))`;

/** A conversation's duration in seconds: to its end, or while live to its last heartbeat. */
export const durationOf = (c: string) =>
  sql<number>`extract(epoch from (coalesce(${sql.ref(`${c}.ended_at`)}, ${sql.ref(`${c}.last_seen_at`)}) - ${sql.ref(`${c}.started_at`)}))::float8`;

/** Claims an ended conversation for its one analysis and rolls it up; undefined when another took it. */
export async function claimConversation(db: Q, id: string, now: Date) {
  const res = await sql<{ id: string; owner_id: string; avatar_id: string }>`
    with claimed as (
      update conversations c set analysed_at = ${now}
       where c.id = ${id} and c.analysed_at is null and c.ended_at is not null
      returning c.id, c.owner_id, c.avatar_id, c.started_at, ${durationOf('c')} as d
    ), day as (
      insert into insight_days as r (owner_id, avatar_id, day, conversations, seconds, durations)
      select owner_id, avatar_id, (started_at at time zone 'UTC')::date, 1, d, array[d] from claimed
      on conflict (owner_id, avatar_id, day) do update
        set conversations = r.conversations + 1, seconds = r.seconds + excluded.seconds, durations = r.durations || excluded.durations
    ), questions as (
      select m.owner_id, m.avatar_id, (m.at at time zone 'UTC')::date as day, x.k as key, min(m.text) as text, count(*)::int as asked
        from claimed c
        join conversation_messages m on m.conversation_id = c.id and m.owner_id = c.owner_id
       cross join lateral (select ${questionKey('m.text')} as k) x
       where m.role = 'user' and x.k <> ''
       group by 1, 2, 3, 4
    ), asked as (
      insert into insight_questions as r (owner_id, avatar_id, day, key, text, asked)
      select owner_id, avatar_id, day, key, text, asked from questions
      on conflict (owner_id, avatar_id, key, day) do update set asked = r.asked + excluded.asked, text = least(r.text, excluded.text)
    ), keys as (
      insert into insight_question_keys as r (owner_id, avatar_id, key, asked)
      select owner_id, avatar_id, key, sum(asked) from questions group by 1, 2, 3
      on conflict (owner_id, avatar_id, key) do update set asked = r.asked + excluded.asked
    )
    select id, owner_id, avatar_id from claimed
  `.execute(db);
  return res.rows[0];
}

/** Stores a conversation's turn counts and moves its day's sums by the change. */
export async function saveCounts(db: Q, id: string, c: { turns: number; knowledge: number; unanswered: number }) {
  await sql`
    with old as (
      select owner_id, avatar_id, started_at, analysed_at, turns, knowledge_turns, unanswered_turns from conversations where id = ${id}
    ), saved as (
      update conversations set turns = ${c.turns}, knowledge_turns = ${c.knowledge}, unanswered_turns = ${c.unanswered} where id = ${id}
    )
    update insight_days r
       set turns = r.turns + ${c.turns} - old.turns,
           knowledge_turns = r.knowledge_turns + ${c.knowledge} - old.knowledge_turns,
           unanswered_turns = r.unanswered_turns + ${c.unanswered} - old.unanswered_turns
      from old
     where old.analysed_at is not null and r.owner_id = old.owner_id and r.avatar_id = old.avatar_id
       and r.day = (old.started_at at time zone 'UTC')::date
  `.execute(db);
}
