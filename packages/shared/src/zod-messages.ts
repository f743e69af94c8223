// The one mapping from zod issues to the messages users see: each schema's own text, and the
// spec's generic invalid-parameters text where zod would say only "Invalid input…" (a wrong
// type, a missing body, an unknown message type). Routes, the conversation and node protocols,
// uploads and batch items all answer through it.
import type { z } from 'zod';
import { INVALID_PARAMS_FALLBACK } from './errors';

/** The part of a zod issue the mapping reads (zod issues and fastify's wrapped ones alike). */
export interface IssueLike {
  message?: string | undefined;
}

export function issueMessage(issue: IssueLike): string {
  const m = issue.message?.trim() ?? '';
  return !m || m.startsWith('Invalid input') ? INVALID_PARAMS_FALLBACK : issue.message!;
}

/** Every distinct message of a failure, in order; never empty. */
export function issueMessages(issues: readonly IssueLike[]): string[] {
  const out = [...new Set(issues.map(issueMessage))];
  return out.length ? out : [INVALID_PARAMS_FALLBACK];
}

/** The first message of a failure (protocols answer one error per frame). */
export function firstIssueMessage(error: { issues: readonly IssueLike[] }, fallback = INVALID_PARAMS_FALLBACK): string {
  const first = error.issues[0];
  return first ? issueMessage(first) : fallback;
}

export type ParsedFrame<T> = { ok: true; message: T } | { ok: false; error: string };

/** Parses one JSON frame of a protocol (the conversation's and the pipeline node's) with its schema. */
export function parseJsonFrame<T>(schema: z.ZodType<T>, raw: string): ParsedFrame<T> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'The message is not valid JSON.' };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: firstIssueMessage(parsed.error, 'Unknown message.') };
}
