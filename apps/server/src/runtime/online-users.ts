// Conversation records as the online-user lists show them (spec 1 §3).
import type { Kysely } from 'kysely';
import type { OnlineUser, OnlineUserDetail } from '@parla/shared/schemas/conversation';
import { paged, pageOf } from '@parla/shared/schemas/paging';
import type { DB } from '../db/schema';
import { countOpenOnDevice, findConversation, listOnline, type ConversationRow } from '../modules/conversations/conversations.repository';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toOnlineUser(r: ConversationRow): OnlineUser {
  return {
    sessionId: r.id,
    userName: r.user_name,
    deviceOS: r.device_os ?? '',
    onlineStatus: r.status,
    locale: r.locale ?? '',
    lastConnectTimeStamp: iso(r.started_at),
    ipAddress: r.ip_address ?? '',
    spokenLanguage: r.spoken_language ?? '',
  };
}

/** One page of open conversations, newest first (decision 221). */
export async function onlineUsers(
  db: Kysely<DB>,
  ownerId: string | undefined,
  query: { limit?: number; offset?: number } = {},
): Promise<{ onlineUsers: OnlineUser[]; nextOffset: number | null }> {
  const page = pageOf(query);
  const { rows, nextOffset } = paged(await listOnline(db, ownerId ? { ownerId } : {}, page), page);
  return { onlineUsers: rows.map(toOnlineUser), nextOffset };
}

/** One open conversation's detail; null when unknown, ended or (with an owner) not theirs. */
export async function onlineUserDetail(db: Kysely<DB>, sessionId: string, ownerId?: string): Promise<OnlineUserDetail | null> {
  const r = await findConversation(db, sessionId, ownerId);
  if (!r || r.ended_at) return null;
  const devices = r.device_id ? await countOpenOnDevice(db, r.device_id) : 1;
  return {
    ...toOnlineUser(r),
    userId: r.user_id,
    deviceId: r.device_id ?? '',
    deviceCount: devices,
    avatarIdAndType: `${r.avatar_id} (${r.avatar_type})`,
    avatarId: r.avatar_id,
    avatarName: r.avatar_name,
  };
}
