// Transcripts (issue 13): an avatar's past conversations and what was said in each, for the
// portal (owner-scoped) and for the end user's own download from the player.
import { z } from 'zod';

export const TRANSCRIPT_PAGE_SIZE_MAX = 100;
export const TRANSCRIPT_DOWNLOAD_OFF_MESSAGE = 'Transcript download is not enabled for this avatar.';

export const avatarConversationsQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be 1 or more')
    .max(100_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be 1 or more')
    .max(TRANSCRIPT_PAGE_SIZE_MAX, `pageSize must be at most ${TRANSCRIPT_PAGE_SIZE_MAX}`)
    .default(20),
});

export const transcriptFormat = z.enum(['json', 'text'], { error: "format must be 'json' or 'text'" });

export const transcriptQuery = z.object({ format: transcriptFormat.optional(), download: z.enum(['0', '1']).optional() });

export const playerTranscriptQuery = z.object({
  key: z.string({ error: 'key is required' }).min(1, 'key is required').max(200, 'key is invalid'),
  format: transcriptFormat.optional(),
});

export interface ConversationListItem {
  id: string;
  userId: string;
  userName: string;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
  endDetail: string | null;
  summary: string | null;
  messages: number;
}

export interface TranscriptMessage {
  role: 'user' | 'assistant';
  text: string;
  at: string;
  interrupted: boolean;
}

export interface Transcript {
  conversation: ConversationListItem & { avatarId: string; avatarName: string };
  messages: TranscriptMessage[];
}

// The two file forms, made the same way by the server (downloads) and the portal.
/** The transcript as a plain-text file: a header, then one line per message. */
export function transcriptText(t: Transcript): string {
  const c = t.conversation;
  const head = [
    `Conversation with ${c.avatarName}`,
    `User: ${c.userName} (${c.userId})`,
    `Started: ${c.startedAt}`,
    `Ended: ${c.endedAt ?? 'still open'}${c.endReason ? ` (${c.endReason})` : ''}`,
  ];
  if (c.summary) head.push(`Summary: ${c.summary}`);
  const lines = t.messages.map(
    (m) => `[${m.at}] ${m.role === 'user' ? c.userName : c.avatarName}: ${m.text}${m.interrupted ? ' (interrupted)' : ''}`,
  );
  return `${[...head, '', ...lines].join('\n')}\n`;
}

export function transcriptFileName(t: Transcript, ext: 'txt' | 'json'): string {
  const day = t.conversation.startedAt.slice(0, 10);
  const name =
    t.conversation.avatarName
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'avatar';
  return `transcript-${name}-${day}-${t.conversation.id.slice(0, 8)}.${ext}`;
}
