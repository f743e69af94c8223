// Where a chunk's question words stand (issue 38, decision 417). A chunk of 800 tokens that holds
// "path" in one paragraph and "together" three paragraphs later is less likely the answer than one
// whose single sentence holds both ("joins all given path segments together"): the chunk is the
// unit of storage, not of meaning. The best window of WINDOW consecutive positions is scored by
// the weight of the distinct question words it holds (a synonym counts for its word).
/** Positions (words) in a window: about two sentences. */
const WINDOW = 30;

/**
 * The largest weight of distinct question words inside WINDOW consecutive positions. `spots` are
 * "lexeme pos pos …" strings (a tsvector's entries); `groups` maps a lexeme to the question word
 * it stands for and that word's weight.
 */
export function nearestWindow(spots: string[], groups: Map<string, { group: string; weight: number }>): number {
  const events: { at: number; group: string; weight: number }[] = [];
  for (const s of spots) {
    const [lexeme, ...positions] = s.split(' ');
    const g = groups.get(lexeme!);
    if (!g) continue;
    for (const p of positions) events.push({ at: Number(p), group: g.group, weight: g.weight });
  }
  events.sort((a, b) => a.at - b.at);
  const inside = new Map<string, number>();
  let sum = 0;
  let best = 0;
  let from = 0;
  for (const e of events) {
    const n = inside.get(e.group) ?? 0;
    if (n === 0) sum += e.weight;
    inside.set(e.group, n + 1);
    while (events[from]!.at <= e.at - WINDOW) {
      const out = events[from++]!;
      const m = inside.get(out.group)! - 1;
      inside.set(out.group, m);
      if (m === 0) sum -= out.weight;
    }
    best = Math.max(best, sum);
  }
  return best;
}
