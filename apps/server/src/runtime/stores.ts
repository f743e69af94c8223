// The conversation parts' collaborators (conversation/ports.ts) over the repositories.
import { planLimits } from '@parla/shared/plans';
import type { AppContext } from '../context';
import type { LlmConfig } from './types';
import { minutesUsedThisMonth } from '../modules/account/usage';
import { planOf } from '../modules/avatars/avatars.repository';
import { endConversation, startConversation } from '../modules/conversations/conversations.repository';
import type { ConversationStore, UsageStore } from './conversation/ports';
import { TranscriptWriter } from './transcript-writer';
import { addMessages, lastSummary, saveSummary } from '../modules/conversations/transcripts.repository';
import { analyseConversation } from '../modules/insight/knowledge-gaps.analyse';
import { inBackground } from '../db/pglite-gate';
import { addUsage, usageToday } from './repositories/usage-counters.repository';

/** `processId`: this process (decision 630): other processes deliver to the conversation there.
 *  An ended conversation is analysed as background work (PGlite serves requests first); while the
 *  process shuts down, not at all: a thousand analyses one after another held PGlite's connection
 *  for seconds and starved the shutdown's timers. The insight and gaps screens analyse the
 *  conversations left pending before they answer (`catchUp`). */
export function conversationStore(ctx: AppContext, processId: string, closing: () => boolean): ConversationStore {
  return {
    start: async (row) => void (await startConversation(ctx.db, { ...row, process_id: processId })),
    end: async (id, at, reason, detail) => void (await endConversation(ctx.db, id, at, reason, detail)),
    saveSummary: (id, summary) => saveSummary(ctx.db, id, summary),
    lastSummary: (ownerId, avatarId, userId) => lastSummary(ctx.db, ownerId, avatarId, userId),
    analyse: async (id) => {
      if (!closing()) await inBackground(() => analyseConversation(ctx, id));
    },
  };
}

/** The process's transcript writer: batches of messages, a few INSERTs each, as background work
 *  (on PGlite a request waiting for the connection goes between two statements, decision 222). */
export function transcriptStore(ctx: AppContext): TranscriptWriter {
  return new TranscriptWriter({ many: (rows) => inBackground(() => addMessages(ctx.db, rows)) }, (err, row) =>
    ctx.log.info({ err: String(err), conversationId: row.conversationId }, 'a transcript message could not be written'),
  );
}

/** The plan's minutes per month of an owner (null: unlimited). */
export async function planMinutes(ctx: AppContext, ownerId: string): Promise<number | null> {
  return planLimits((await planOf(ctx.db, ownerId)) ?? 0).minutesPerMonth;
}

export async function monthlyMinutesUsedUp(ctx: AppContext, ownerId: string): Promise<boolean> {
  const minutes = await planMinutes(ctx, ownerId);
  return minutes !== null && (await minutesUsedThisMonth(ctx, ownerId)) >= minutes;
}

export function usageStore(ctx: AppContext): UsageStore {
  return {
    add: (keys, seconds, at) => addUsage(ctx.db, keys, seconds, at),
    today: (key, at) => usageToday(ctx.db, key, at),
    monthlyMinutesUsedUp: (ownerId) => monthlyMinutesUsedUp(ctx, ownerId),
  };
}

/** The product's own model (Simple mode's, LLM_BASE_URL): summaries for engines without one. */
export function productModel(config: Pick<AppContext['config'], 'LLM_BASE_URL' | 'LLM_API_KEY'>): LlmConfig | null {
  if (!config.LLM_BASE_URL) return null;
  return {
    kind: 'llm',
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY ?? '',
    model: 'default',
    instructions: '',
    memory: '',
    sendHistory: false,
    tools: [],
  };
}
