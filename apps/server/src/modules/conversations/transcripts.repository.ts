// Transcripts (conversation_messages) and what a conversation leaves behind (its summary): written
// by the runtime, read by the portal and the player's download. Every reader passes the owner id
// (the player's download passes the conversation's own id and key, checked by the service).
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

export interface MessageRow {
  conversationId: string;
  ownerId: string;
  avatarId: string;
  seq: number;
  role: string;
  text: string;
  at: Date;
  interrupted: boolean;
  knowledgeHits?: number | null;
}

/** Messages of any conversations in one statement (the runtime writes them in batches). */
export async function addMessages(db: Q, rows: MessageRow[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto('conversation_messages')
    .values(
      rows.map((m) => ({
        id: randomUUID(),
        conversation_id: m.conversationId,
        owner_id: m.ownerId,
        avatar_id: m.avatarId,
        seq: m.seq,
        role: m.role,
        text: m.text,
        at: m.at,
        interrupted: m.interrupted,
        knowledge_hits: m.knowledgeHits ?? null,
      })),
    )
    .execute();
}

/** The messages of one conversation of this owner, in order (the hidden wake-up included: the caller decides). */
export function messagesOf(db: Q, ownerId: string, conversationId: string) {
  return db
    .selectFrom('conversation_messages')
    .select(['seq', 'role', 'text', 'at', 'interrupted'])
    .where('owner_id', '=', ownerId)
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();
}

/** An avatar's conversations, newest first, with how many messages each has. */
export function conversationsOfAvatar(db: Q, ownerId: string, avatarId: string, limit: number, offset: number) {
  return db
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
    .where('c.owner_id', '=', ownerId)
    .where('c.avatar_id', '=', avatarId)
    .orderBy('c.started_at', 'desc')
    .orderBy('c.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countConversationsOfAvatar(db: Q, ownerId: string, avatarId: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function saveSummary(db: Q, id: string, summary: string): Promise<void> {
  await db.updateTable('conversations').set({ summary }).where('id', '=', id).execute();
}

/** The summary of this verified end user's latest summarised conversation with the avatar. */
export async function lastSummary(db: Q, ownerId: string, avatarId: string, verifiedUserId: string): Promise<string | null> {
  const row = await db
    .selectFrom('conversations')
    .select('summary')
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .where('verified_user_id', '=', verifiedUserId)
    .where('summary', 'is not', null)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.summary ?? null;
}
