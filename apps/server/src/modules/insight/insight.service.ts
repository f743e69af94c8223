// Conversation insight per avatar (issue 38 item 4): the range's figures and days, its top
// questions, a page of its conversations (searchable), and its transcripts as CSV or JSON,
// streamed in batches so an export of a busy year never sits in memory.
import { Readable } from 'node:stream';
import { csvCell, daysIn, EXPORT_CSV_HEADER, type InsightConversationsResponse, type InsightResponse } from '@parla/shared/schemas/insight';
import type { AppContext } from '../../context';
import { conversationItem } from '../conversations/transcripts.service';
import { catchUp } from './knowledge-gaps.analyse';
import { ownAvatar } from './knowledge-gaps.service';
import * as repo from './insight.repository';
import { topQuestions } from './top-questions';

const TOP_QUESTIONS = 10;
const EXPORT_BATCH = 200;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** [from 00:00, the day after `to` 00:00) in UTC. */
function rangeOf(ownerId: string, avatarId: string, q: { from: string; to: string }): repo.Range {
  const start = new Date(`${q.from}T00:00:00Z`);
  const end = new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000);
  return { ownerId, avatarId, start, end };
}

export async function insight(
  ctx: AppContext,
  ownerId: string,
  avatarId: string,
  q: { from: string; to: string },
): Promise<InsightResponse> {
  await ownAvatar(ctx, ownerId, avatarId);
  await catchUp(ctx, ownerId, avatarId);
  const r = rangeOf(ownerId, avatarId, q);
  const [t, days, top] = await Promise.all([repo.totals(ctx.db, r), repo.byDay(ctx.db, r), topQuestions(ctx.db, r, TOP_QUESTIONS)]);
  const turns = Number(t.turns ?? 0);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    status: 'OK',
    from: q.from,
    to: q.to,
    conversations: Number(t.conversations),
    totalSeconds: round(Number(t.total_seconds ?? 0)),
    medianSeconds: round(Number(t.median_seconds ?? 0)),
    turns,
    knowledgeTurns: Number(t.knowledge_turns ?? 0),
    unansweredTurns: Number(t.unanswered_turns ?? 0),
    knowledgeShare: turns ? Number(t.knowledge_turns ?? 0) / turns : 0,
    unansweredRate: turns ? Number(t.unanswered_turns ?? 0) / turns : 0,
    // Every day of the range, the empty ones too (the chart's axis is the range).
    days: Array.from({ length: daysIn(q.from, q.to) }, (_, i) => {
      const day = new Date(r.start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const d = byDay.get(day);
      return {
        day,
        conversations: Number(d?.conversations ?? 0),
        turns: Number(d?.turns ?? 0),
        unansweredTurns: Number(d?.unanswered_turns ?? 0),
      };
    }),
    topQuestions: top.map((x) => ({ text: x.text, count: Number(x.count) })),
  };
}

export async function insightConversations(
  ctx: AppContext,
  ownerId: string,
  avatarId: string,
  q: { from: string; to: string; q?: string | undefined; page: number; pageSize: number },
): Promise<InsightConversationsResponse> {
  await ownAvatar(ctx, ownerId, avatarId);
  const r = rangeOf(ownerId, avatarId, q);
  const search = q.q ? await repo.search(ctx.db, r, q.q) : undefined;
  const rows = await repo.conversationsPage(ctx.db, r, search, q.pageSize + 1, (q.page - 1) * q.pageSize);
  return {
    status: 'OK',
    conversations: rows.slice(0, q.pageSize).map(conversationItem),
    page: q.page,
    pageSize: q.pageSize,
    hasMore: rows.length > q.pageSize,
  };
}

/** The range's transcripts as a stream: CSV (one row per message) or JSON (conversations with their messages). */
export async function exportTranscripts(
  ctx: AppContext,
  ownerId: string,
  avatarId: string,
  q: { from: string; to: string; q?: string | undefined; format: 'csv' | 'json' },
): Promise<Readable> {
  await ownAvatar(ctx, ownerId, avatarId);
  const r = rangeOf(ownerId, avatarId, q);
  const search = q.q ? await repo.search(ctx.db, r, q.q) : undefined;
  async function* batches() {
    let after: { startedAt: Date; id: string } | undefined;
    for (;;) {
      const rows = await repo.conversationsPage(ctx.db, r, search, EXPORT_BATCH, 0, after);
      if (!rows.length) return;
      const messages = await repo.messagesOfConversations(
        ctx.db,
        ownerId,
        rows.map((c) => c.id),
      );
      yield rows.map((c) => ({ ...conversationItem(c), messages: messages.filter((m) => m.conversation_id === c.id) }));
      const last = rows.at(-1)!;
      after = { startedAt: new Date(last.started_at), id: last.id };
      if (rows.length < EXPORT_BATCH) return;
    }
  }
  async function* csv() {
    yield `${EXPORT_CSV_HEADER.join(',')}\r\n`;
    for await (const batch of batches())
      for (const c of batch)
        for (const m of c.messages)
          yield `${[c.id, c.startedAt, c.userName, m.seq, m.role, iso(m.at), m.text, m.interrupted].map(csvCell).join(',')}\r\n`;
  }
  async function* json() {
    yield `{"avatarId":${JSON.stringify(avatarId)},"from":${JSON.stringify(q.from)},"to":${JSON.stringify(q.to)},"conversations":[`;
    let first = true;
    for await (const batch of batches())
      for (const c of batch) {
        const messages = c.messages.map((m) => ({ role: m.role, text: m.text, at: iso(m.at), interrupted: m.interrupted }));
        yield `${first ? '' : ','}${JSON.stringify({ ...c, messages })}`;
        first = false;
      }
    yield ']}';
  }
  return Readable.from(q.format === 'csv' ? csv() : json());
}
