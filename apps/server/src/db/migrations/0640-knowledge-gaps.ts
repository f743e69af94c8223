import { sql, type Kysely } from 'kysely';

// Issue 38 items 3 and 4: what the avatar could not answer, and insight over its conversations.
// - conversation_messages.knowledge_hits (on the avatar's messages): null = the knowledge base was
//   not searched for the message it answers, 0 = searched and nothing cleared the cut-off,
//   n = passages the answer was given with.
// - conversations.analysed_at and the turn counts: each ended conversation is read once from its
//   stored transcript (knowledge-gaps.analyse.ts); the insight sums these columns instead of
//   reading every message of the range.
// - knowledge_gaps: an avatar's unanswered questions grouped by meaning (open, resolved,
//   dismissed); knowledge_gap_questions: each question asked, with its lexemes (the grouping key).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table conversation_messages add column knowledge_hits smallint;
    alter table conversations add column analysed_at timestamptz;
    alter table conversations add column turns integer not null default 0;
    alter table conversations add column knowledge_turns integer not null default 0;
    alter table conversations add column unanswered_turns integer not null default 0;
    create index conversations_unanalysed_idx on conversations(owner_id, avatar_id) where analysed_at is null and ended_at is not null;
    create index conversation_messages_avatar_user_idx on conversation_messages(owner_id, avatar_id, at) where role = 'user';
    create table knowledge_gaps (
      id text primary key,
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null references avatars(id) on delete cascade,
      status text not null default 'open',
      question text not null,
      asked integer not null default 0,
      first_at timestamptz not null,
      last_at timestamptz not null,
      resolved_at timestamptz,
      resolved_by text,
      item_id text
    );
    create index knowledge_gaps_avatar_idx on knowledge_gaps(owner_id, avatar_id, status, last_at);
    create table knowledge_gap_questions (
      id text primary key,
      gap_id text not null references knowledge_gaps(id) on delete cascade,
      owner_id text not null,
      avatar_id text not null,
      conversation_id text not null,
      text text not null,
      lexemes text not null,
      ts_config text not null,
      reason text not null,
      at timestamptz not null
    );
    create index knowledge_gap_questions_gap_idx on knowledge_gap_questions(gap_id, at);
    create index knowledge_gap_questions_avatar_idx on knowledge_gap_questions(owner_id, avatar_id, at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table knowledge_gap_questions;
    drop table knowledge_gaps;
    drop index conversation_messages_avatar_user_idx;
    drop index conversations_unanalysed_idx;
    alter table conversation_messages drop column knowledge_hits;
    alter table conversations drop column analysed_at;
    alter table conversations drop column turns;
    alter table conversations drop column knowledge_turns;
    alter table conversations drop column unanswered_turns;
  `.execute(db);
}
