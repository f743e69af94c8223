// Transcripts for the portal and for the player's download: the records, the messages (the
// hidden wake-up turn left out: the user never said it) and the two file forms, text and JSON.
import type { ConversationListItem, Transcript } from '@parla/shared/schemas/transcripts';
import { TRANSCRIPT_DOWNLOAD_OFF_MESSAGE } from '@parla/shared/schemas/transcripts';
import { planName } from '@parla/shared/plans';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { find as findAvatar, findPublic, isAvatarId, planOf } from '../avatars/avatars.repository';
import { transcriptDownloadAllowed } from '../../runtime/avatar-settings';
import { findConversation } from './conversations.repository';
import { transcriptKeyMatches } from './transcript-key';
import { conversationsOfAvatar, countConversationsOfAvatar, messagesOf } from './transcripts.repository';

type Row = Awaited<ReturnType<typeof conversationsOfAvatar>>[number];
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A conversation as the lists show it (the past conversations, the insight's). */
export function conversationItem(r: Omit<Row, 'messages'> & { messages?: unknown }): ConversationListItem {
  return {
    id: r.id,
    userId: r.user_id,
    userName: r.user_name,
    startedAt: iso(r.started_at)!,
    endedAt: iso(r.ended_at),
    endReason: r.end_reason,
    endDetail: r.end_detail ?? null,
    summary: r.summary ?? null,
    messages: Number(r.messages ?? 0),
  };
}

export async function listAvatarConversations(ctx: AppContext, ownerId: string, avatarId: string, page: number, pageSize: number) {
  if (!isAvatarId(avatarId) || !(await findAvatar(ctx.db, ownerId, avatarId))) throw AppError.notFound('Avatar');
  const [rows, total] = await Promise.all([
    conversationsOfAvatar(ctx.db, ownerId, avatarId, pageSize, (page - 1) * pageSize),
    countConversationsOfAvatar(ctx.db, ownerId, avatarId),
  ]);
  return { conversations: rows.map(conversationItem), total, page, pageSize };
}

export async function transcriptOf(ctx: AppContext, ownerId: string, conversationId: string): Promise<Transcript> {
  const c = conversationId.length <= 100 ? await findConversation(ctx.db, conversationId, ownerId) : undefined;
  if (!c) throw AppError.notFound('Conversation');
  const messages = (await messagesOf(ctx.db, ownerId, conversationId))
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => ({ role: m.role as 'user' | 'assistant', text: m.text, at: iso(m.at)!, interrupted: m.interrupted }));
  return {
    conversation: { ...conversationItem({ ...c, messages: messages.length }), avatarId: c.avatar_id, avatarName: c.avatar_name },
    messages,
  };
}

/** The end user's download: the conversation's own key, and the avatar must allow it now. */
export async function playerTranscript(ctx: AppContext, conversationId: string, key: string): Promise<Transcript> {
  if (conversationId.length > 100 || !transcriptKeyMatches(ctx.jwtKey, conversationId, key)) throw AppError.notFound('Conversation');
  const c = await findConversation(ctx.db, conversationId);
  if (!c) throw AppError.notFound('Conversation');
  const avatar = isAvatarId(c.avatar_id) ? await findPublic(ctx.db, c.avatar_id) : undefined;
  if (!avatar || avatar.owner_id !== c.owner_id) throw AppError.notFound('Conversation');
  if (!transcriptDownloadAllowed(avatar, planName((await planOf(ctx.db, c.owner_id)) ?? 0)))
    throw AppError.forbidden(TRANSCRIPT_DOWNLOAD_OFF_MESSAGE);
  return transcriptOf(ctx, c.owner_id, conversationId);
}
