// Reads one ended conversation's stored transcript once (issue 38): its turn counts for the
// insight, its unanswered questions grouped into the avatar's knowledge gaps by meaning (the
// lexemes of the knowledge search's own text analysis, compared with gap-classify.ts), and the
// open gaps its questions answered from knowledge resolve. Called when a conversation ends (after
// its transcript is written) and, for any it missed (a process that stopped), before the gaps or
// the insight are read. Claiming `analysed_at` first makes every conversation count once.
import type { AppContext } from '../../context';
import { effectiveLanguage, FALLBACK_CONFIG, textSearchConfig } from '../knowledge/knowledge.language';
import { meaningfulWords } from '../knowledge/knowledge.query';
import { classify, isSmallTalk, SAME_QUESTION, similarity, type Question } from './gap-classify';
import { claimConversation, saveCounts } from './insight-rollups.repository';
import * as repo from './knowledge-gaps.repository';

/** Gap questions compared with each new one: the avatar's most recent. */
const MATCH_WINDOW = 2000;
/** A conversation is left this long after its end before a reader analyses it (its transcript
 *  is still being written by the process that held it). */
export const SETTLE_MS = 5_000;
/** Conversations a reader catches up at most before answering (the rest wait for the next read). */
const CATCH_UP_MAX = 200;

export async function analyseConversation(ctx: AppContext, conversationId: string): Promise<boolean> {
  const c = await claimConversation(ctx.db, conversationId, ctx.now());
  if (!c) return false;
  const messages = (await repo.storedMessages(ctx.db, c.owner_id, c.id)).map((m) => ({
    role: m.role,
    text: m.text,
    at: new Date(m.at),
    knowledgeHits: m.knowledge_hits,
  }));
  const users = messages.filter((m) => m.role === 'user');
  const lang = await repo.avatarLanguage(ctx.db, c.owner_id, c.avatar_id);
  const language = lang ? effectiveLanguage(lang) : null;
  const config = lang ? await textSearchConfig(ctx.db, language) : FALLBACK_CONFIG;
  const lexemes = await repo.lexemesOf(
    ctx.db,
    config,
    users.map((m) => meaningfulWords(m.text, language).join(' ')),
  );
  const questions = classify(messages, lexemes).map((q) =>
    isSmallTalk(q.text) || !q.lexemes.length ? { ...q, outcome: 'other' as const } : q,
  );
  await saveCounts(ctx.db, c.id, {
    turns: questions.length,
    knowledge: questions.filter((q) => q.outcome === 'knowledge').length,
    unanswered: questions.filter((q) => q.outcome === 'unanswered').length,
  });
  if (questions.some((q) => q.outcome !== 'other'))
    await group(ctx, { ownerId: c.owner_id, avatarId: c.avatar_id, conversationId: c.id }, questions, { config, language });
  return true;
}

async function group(
  ctx: AppContext,
  at: { ownerId: string; avatarId: string; conversationId: string },
  questions: Question[],
  analysis: { config: string; language: string | null },
) {
  const rows = await repo.gapQuestionsToMatch(ctx.db, at.ownerId, at.avatarId, MATCH_WINDOW);
  // Questions analysed under another configuration (the collection's language was detected or
  // changed since) are analysed again, or the same words would not compare equal.
  const stale = rows.filter((r) => r.ts_config !== analysis.config);
  if (stale.length) {
    const again = await repo.lexemesOf(
      ctx.db,
      analysis.config,
      stale.map((r) => meaningfulWords(r.text, analysis.language).join(' ')),
    );
    stale.forEach((r, i) => (r.lexemes = again[i]!.join(' ')));
    await repo.relexGapQuestions(
      ctx.db,
      stale.map((r, i) => ({ id: r.id, lexemes: again[i]! })),
      analysis.config,
    );
  }
  const known = rows.map((r) => ({
    gapId: r.gap_id,
    status: r.status,
    lastAt: new Date(r.last_at),
    lexemes: r.lexemes.split(' ').filter(Boolean),
  }));
  const best = (lexemes: string[], statuses: string[]) => {
    let found: (typeof known)[number] | null = null;
    let score = 0;
    for (const k of known) {
      if (!statuses.includes(k.status)) continue;
      const s = similarity(lexemes, k.lexemes);
      if (s >= SAME_QUESTION && s > score) [found, score] = [k, s];
    }
    return found;
  };
  for (const q of questions) {
    if (q.outcome === 'unanswered') {
      const match = best(q.lexemes, ['open', 'dismissed']);
      const gapId =
        match?.gapId ??
        (await repo.createGap(ctx.db, { ownerId: at.ownerId, avatarId: at.avatarId, question: q.text.slice(0, 200), at: q.at }));
      await repo.addGapQuestion(ctx.db, gapId, {
        ...at,
        text: q.text.slice(0, 2000),
        lexemes: q.lexemes,
        config: analysis.config,
        reason: q.reason!,
        at: q.at,
      });
      if (!match) known.unshift({ gapId, status: 'open', lastAt: q.at, lexemes: q.lexemes });
    } else if (q.outcome === 'knowledge') {
      // The same question, asked after the gap's last miss, now answered from knowledge: resolved.
      for (const k of known.filter((k) => k.status === 'open' && k.lastAt <= q.at && similarity(q.lexemes, k.lexemes) >= SAME_QUESTION)) {
        await repo.setGapStatus(ctx.db, at.ownerId, at.avatarId, k.gapId, ['open'], {
          status: 'resolved',
          resolvedBy: 'answered',
          at: ctx.now(),
        });
        for (const same of known) if (same.gapId === k.gapId) same.status = 'resolved';
      }
    }
  }
}

/** Analyses the avatar's ended conversations that no process analysed (a bounded batch). */
export async function catchUp(ctx: AppContext, ownerId: string, avatarId: string): Promise<void> {
  const ids = await repo.pendingConversations(ctx.db, ownerId, avatarId, new Date(ctx.now().getTime() - SETTLE_MS), CATCH_UP_MAX);
  for (const id of ids) await analyseConversation(ctx, id);
}
