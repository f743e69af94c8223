// Where a chunk's question words stand (issue 38, decision 417). A chunk of 800 tokens that holds
// "path" in one paragraph and "together" three paragraphs later is less likely the answer than one
// whose single sentence holds both ("joins all given path segments together"): the chunk is the
// unit of storage, not of meaning. The best window of WINDOW consecutive positions is scored by
// the weight of the distinct question words it holds (a synonym counts for its word).
import type { Spot } from './knowledge.scoring';

/** Positions (words) in a window: about two sentences. */
const WINDOW = 30;

/** Spots per chunk at most: an event's key is its position × this + its spot's index. */
const SPOTS = 64;

// Scratch space, reused from call to call (the function is synchronous): a search scores a few
// dozen chunks, and their events, counts and cursors were all garbage (issue 37, decision 424).
let events = new Int32Array(1024);
const next = new Int32Array(SPOTS);
const inside = new Int32Array(SPOTS);

/**
 * The largest weight of distinct question words inside WINDOW consecutive positions. `spots` are a
 * tsvector's entries (a lexeme and its positions); `group[i]` is the question word spot i stands
 * for (a number below SPOTS; -1: none, the spot is ignored) and `weight[i]` that spot's weight.
 */
export function nearestWindow(spots: Spot[], group: number[], weight: number[]): number {
  if (spots.length > SPOTS) throw new Error(`nearestWindow: ${spots.length} spots, at most ${SPOTS}`);
  let count = 0;
  for (let i = 0; i < spots.length; i++) {
    next[i] = 0;
    if (group[i]! >= 0) {
      inside[group[i]!] = 0;
      count += spots[i]!.positions.length;
    }
  }
  if (events.length < count) events = new Int32Array(count * 2);
  // Events as keys (position × SPOTS + spot) in order of position, then of spot: the order a
  // stable sort of event objects gave, so the sums below add the same weights in the same order
  // (the same float8 result). Each spot's positions are ascending (a tsvector's are): merged, the
  // smallest head first and the first spot on a tie.
  for (let e = 0; e < count; e++) {
    let pick = -1;
    let at = 0;
    for (let i = 0; i < spots.length; i++) {
      if (group[i]! < 0 || next[i]! >= spots[i]!.positions.length) continue;
      const p = spots[i]!.positions[next[i]!]!;
      if (pick < 0 || p < at) {
        pick = i;
        at = p;
      }
    }
    next[pick]!++;
    events[e] = at * SPOTS + pick;
  }
  let sum = 0;
  let best = 0;
  let from = 0;
  for (let e = 0; e < count; e++) {
    const at = Math.floor(events[e]! / SPOTS);
    const spot = events[e]! % SPOTS;
    if (inside[group[spot]!]!++ === 0) sum += weight[spot]!;
    while (Math.floor(events[from]! / SPOTS) <= at - WINDOW) {
      const out = events[from++]! % SPOTS;
      if (--inside[group[out]!]! === 0) sum -= weight[out]!;
    }
    best = Math.max(best, sum);
  }
  return best;
}
