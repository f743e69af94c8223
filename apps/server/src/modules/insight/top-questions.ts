// The range's ten most asked questions (decision 416), exactly as counting every visitor message
// of the range would give them (lower-cased, punctuation folded; ties by key), without reading
// every stored row of a long range: the avatar's questions are walked by their count of all time,
// which bounds their count in any range, and the walk stops when no question left can enter the
// ten (its bound is below the tenth's count, or equal to it with a key sorting after the tenth's).
// Questions of the conversations not analysed yet are counted first, exactly. A walk that has not
// stopped after a few steps (a short range whose questions are not the avatar's usual ones)
// counts the range's stored rows instead.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { Range } from './insight.repository';
import { pendingQuestions, topOfRange, walkStep, type Counted } from './top-questions.repository';

const BATCH = 500;
const MAX_STEPS = 4;

export async function topQuestions(
  db: Kysely<DB>,
  r: Range,
  limit: number,
  o: { batch: number; maxSteps: number } = { batch: BATCH, maxSteps: MAX_STEPS },
): Promise<Counted[]> {
  // The pending conversations' questions first, with their whole count: the walk leaves them out.
  const exact = await pendingQuestions(db, r);
  const skip = exact.map((e) => e.key);
  let top = exact;
  let after: { key: string; asked: number } | null = null;
  for (let step = 0; step < o.maxSteps; step++) {
    const s = await walkStep(db, r, { top, skip, after, batch: o.batch, limit });
    top = s.top;
    if (s.read < o.batch || !s.last) return top; // every question read
    after = s.last;
    const tenth = top.length >= limit ? top[limit - 1]!.count : 0;
    if (top.length >= limit && (s.last.asked < tenth || (s.last.asked === tenth && s.lastAtOrAfterTop))) return top;
  }
  return topOfRange(db, r, limit);
}
