import { sql, type Kysely } from 'kysely';

// Issue 13: what was said in each conversation, and what the conversation left behind.
// - conversation_messages: one row per message (the end user's, the avatar's, the hidden
//   wake-up), owner-scoped, deleted with the avatar (the conversation record itself outlives a
//   deleted avatar for billing, its words do not).
// - conversations.summary: the end-of-conversation summary (Summary Enabled);
//   conversations.verified_user_id: the end user's id when a signed access token or an OAuth
//   sign-in vouched for it (the memory of the next conversation is keyed by it);
//   conversations.end_detail: why the runtime ended it, in words (billing authorisation).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table conversation_messages (
      id text primary key,
      conversation_id text not null,
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null references avatars(id) on delete cascade,
      seq integer not null,
      role text not null,
      text text not null,
      at timestamptz not null,
      interrupted boolean not null default false
    );
    create index conversation_messages_conversation_idx on conversation_messages(conversation_id, seq);
    create index conversation_messages_avatar_idx on conversation_messages(avatar_id);
    alter table conversations add column summary text;
    alter table conversations add column verified_user_id text;
    alter table conversations add column end_detail text;
    create index conversations_avatar_user_idx on conversations(avatar_id, verified_user_id, started_at) where verified_user_id is not null;
    create index conversations_avatar_time_idx on conversations(owner_id, avatar_id, started_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table conversation_messages;
    alter table conversations drop column summary;
    alter table conversations drop column verified_user_id;
    alter table conversations drop column end_detail;
  `.execute(db);
}
