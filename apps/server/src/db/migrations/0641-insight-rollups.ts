import { sql, type Kysely } from 'kysely';

// Issue 38 item 4 at 100,000 conversations (docs/decisions/416): what the insight sums is stored
// when a conversation is analysed, so a range reads at most one row per day instead of every
// conversation and every message.
// - insight_days: per avatar and UTC day of the conversations' start, the analysed conversations'
//   count, their durations (the sum, and each one: the median of a range is exact), and their
//   turn counts.
// - insight_questions: per avatar, UTC day of the message and question key (lower-cased,
//   punctuation and spacing folded: the top questions' grouping), how often it was asked and the
//   first of its spellings (min); insight_question_keys: each key's count of all time, the bound
//   with which the top questions of a long range stop reading (top-questions.ts).
// - conversations_pending_idx: the conversations not analysed yet (live, or ended moments ago),
//   which the insight reads as before and adds to the stored figures.
// Existing analysed conversations are rolled up here (backfillInsightRollups).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table insight_days (
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null,
      day date not null,
      conversations integer not null default 0,
      seconds float8 not null default 0,
      durations float8[] not null default '{}',
      turns integer not null default 0,
      knowledge_turns integer not null default 0,
      unanswered_turns integer not null default 0,
      primary key (owner_id, avatar_id, day)
    );
    create table insight_questions (
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null,
      day date not null,
      key text not null,
      text text not null,
      asked integer not null,
      primary key (owner_id, avatar_id, key, day)
    );
    create index insight_questions_day_idx on insight_questions(owner_id, avatar_id, day);
    create table insight_question_keys (
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null,
      key text not null,
      asked integer not null,
      primary key (owner_id, avatar_id, key)
    );
    create index insight_question_keys_asked_idx on insight_question_keys(owner_id, avatar_id, asked desc, key);
    create index conversations_pending_idx on conversations(owner_id, avatar_id, started_at) where analysed_at is null;
  `.execute(db);
  await backfillInsightRollups(db);
}

/** Rolls up every analysed conversation (on empty tables: the migration, and the bench's seed). */
export async function backfillInsightRollups(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into insight_days (owner_id, avatar_id, day, conversations, seconds, durations, turns, knowledge_turns, unanswered_turns)
    select owner_id, avatar_id, (started_at at time zone 'UTC')::date, count(*), sum(d), array_agg(d order by d),
           sum(turns), sum(knowledge_turns), sum(unanswered_turns)
      from conversations
     cross join lateral (select extract(epoch from (coalesce(ended_at, last_seen_at) - started_at))::float8 as d) x
     where analysed_at is not null
     group by 1, 2, 3
  `.execute(db);
  await sql`
    insert into insight_questions (owner_id, avatar_id, day, key, text, asked)
    select m.owner_id, m.avatar_id, (m.at at time zone 'UTC')::date, x.k, min(m.text), count(*)
      from conversation_messages m
      join conversations c on c.id = m.conversation_id
     cross join lateral (select trim(regexp_replace(lower(m.text), '[^[:alnum:]]+', ' ', 'g')) as k) x
     where m.role = 'user' and c.analysed_at is not null and x.k <> ''
     group by 1, 2, 3, 4
  `.execute(db);
  await sql`
    insert into insight_question_keys (owner_id, avatar_id, key, asked)
    select owner_id, avatar_id, key, sum(asked) from insight_questions group by 1, 2, 3
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index conversations_pending_idx;
    drop table insight_question_keys;
    drop table insight_questions;
    drop table insight_days;
  `.execute(db);
}
