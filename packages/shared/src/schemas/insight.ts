// Issue 38 items 3 and 4: an avatar's knowledge gaps (questions it could not answer, grouped by
// meaning) and the insight over its conversations in a date range (figures, a chart by day, the
// top questions, searchable and exportable transcripts). Owner-scoped routes under
// /api/avatars/{avatarId}/…
import { z } from 'zod';
import type { ConversationListItem } from './transcripts';

export const GAPS_PAGE_SIZE_MAX = 50;
export const INSIGHT_PAGE_SIZE_MAX = 100;
/** A range longer than this is refused: a year by day is the chart's widest view. */
export const INSIGHT_RANGE_MAX_DAYS = 366;
export const INSIGHT_RANGE_TOO_LONG = `The range may span at most ${INSIGHT_RANGE_MAX_DAYS} days.`;
export const INSIGHT_FROM_AFTER_TO = 'The start date cannot be after the end date.';
export const GAP_ANSWER_MAX_CHARS = 20_000;
export const GAP_COLLECTION_NOT_LINKED = 'Choose a knowledge collection linked to this avatar.';

const page = z.coerce
  .number({ error: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be 1 or more')
  .max(100_000, 'page is too large')
  .default(1);

function pageSize(max: number, fallback: number) {
  return z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be 1 or more')
    .max(max, `pageSize must be at most ${max}`)
    .default(fallback);
}

export const gapStatus = z.enum(['open', 'dismissed', 'resolved'], { error: "status must be 'open', 'dismissed' or 'resolved'" });
export type GapStatus = z.infer<typeof gapStatus>;

export const knowledgeGapsQuery = z.object({ status: gapStatus.default('open'), page, pageSize: pageSize(GAPS_PAGE_SIZE_MAX, 20) });

export const gapParams = z.object({
  avatarId: z.string().max(100, 'id is too long'),
  gapId: z.string().max(100, 'id is too long'),
});

export const gapAnswerRequest = z.object({
  collectionId: z.string({ error: 'Choose a knowledge collection.' }).min(1, 'Choose a knowledge collection.').max(100, 'id is too long'),
  question: z
    .string({ error: 'The question is required.' })
    .trim()
    .min(1, 'The question is required.')
    .max(200, 'The question must be at most 200 characters.'),
  answer: z
    .string({ error: 'Write the answer.' })
    .trim()
    .min(1, 'Write the answer.')
    .max(GAP_ANSWER_MAX_CHARS, `The answer must be at most ${GAP_ANSWER_MAX_CHARS} characters.`),
});
export type GapAnswerRequest = z.infer<typeof gapAnswerRequest>;

/** Why a question counts as unanswered. */
export type GapReason = 'no_knowledge' | 'did_not_know' | 'asked_again';

export interface KnowledgeGap {
  id: string;
  status: GapStatus;
  /** The first question of the group: what the answer's item is named after. */
  question: string;
  asked: number;
  firstAt: string;
  lastAt: string;
  resolvedBy: 'answered' | 'written' | null;
  /** The latest questions of the group, newest first. */
  examples: { text: string; at: string; reason: GapReason }[];
}

export interface KnowledgeGapsResponse {
  status: 'OK';
  gaps: KnowledgeGap[];
  total: number;
  page: number;
  pageSize: number;
  /** The avatar's linked collections: where an answer can be written. */
  collections: { id: string; name: string }[];
}

const day = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d\d-\d\d$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      message: `${label} must be a date (YYYY-MM-DD)`,
    });

const rangeFields = { from: day('from'), to: day('to') };

function checkRange<T extends { from: string; to: string }>(schema: z.ZodType<T>) {
  return schema
    .refine((q) => q.from <= q.to, { message: INSIGHT_FROM_AFTER_TO, path: ['from'], when: (p) => p.issues.length === 0 })
    .refine((q) => daysIn(q.from, q.to) <= INSIGHT_RANGE_MAX_DAYS, {
      message: INSIGHT_RANGE_TOO_LONG,
      path: ['to'],
      when: (p) => p.issues.length === 0,
    });
}

/** Days from `from` to `to`, both included (UTC). */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export const insightQuery = checkRange(z.object(rangeFields));

const search = z.string().trim().max(200, 'The search must be at most 200 characters.').optional();

export const insightConversationsQuery = checkRange(
  z.object({ ...rangeFields, q: search, page, pageSize: pageSize(INSIGHT_PAGE_SIZE_MAX, 20) }),
);

export const insightExportQuery = checkRange(
  z.object({ ...rangeFields, q: search, format: z.enum(['csv', 'json'], { error: "format must be 'csv' or 'json'" }) }),
);

export interface InsightDay {
  day: string;
  conversations: number;
  turns: number;
  unansweredTurns: number;
}

export interface InsightResponse {
  status: 'OK';
  from: string;
  to: string;
  conversations: number;
  totalSeconds: number;
  medianSeconds: number;
  turns: number;
  knowledgeTurns: number;
  unansweredTurns: number;
  /** Shares of the turns, 0..1 (0 when there were none). */
  knowledgeShare: number;
  unansweredRate: number;
  days: InsightDay[];
  topQuestions: { text: string; count: number }[];
}

export interface InsightConversationsResponse {
  status: 'OK';
  conversations: ConversationListItem[];
  page: number;
  pageSize: number;
  /** Another page follows (a search does not count every match: that would read the whole range). */
  hasMore: boolean;
}

/** One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break; a cell that a
 *  spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe. */
export function csvCell(value: string | number | boolean | null): string {
  let s = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const EXPORT_CSV_HEADER = ['conversation_id', 'started_at', 'user_name', 'seq', 'role', 'at', 'text', 'interrupted'];
