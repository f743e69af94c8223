// One reply of the avatar: its handle owns the abort signal every stage of the reply checks,
// the text said so far and its timings. The turn loop holds at most one current reply.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RetrievedChunk } from '../types';

export class Reply {
  readonly abort = new AbortController();
  readonly started = performance.now();
  text = '';
  firstDeltaAt: number | null = null;
  audioSeq = 0;
  /** Text said but not yet sent: deltas after the first go out together (reply-output.ts). */
  unsent = '';
  deltaTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly id: string = randomUUID(),
    /** Started by the engine itself (REST callback, realtime audio), not by a user message. */
    readonly engineInitiated = false,
  ) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get cut(): boolean {
    return this.abort.signal.aborted;
  }

  /** Time to the first delta (ms), or null when nothing was said. */
  get firstDeltaMs(): number | null {
    return this.firstDeltaAt === null ? null : this.firstDeltaAt - this.started;
  }

  get words(): number {
    return this.text.split(/\s+/).filter(Boolean).length;
  }
}

/** What a finished reply reports (the accounting records it). */
export interface ReplyFinished {
  firstDeltaMs: number | null;
  engineMs: number;
  retrievalMs: number;
  interrupted: boolean;
  /** The engine failed to answer (the user got a notice): counted per provider in /metrics. */
  failed?: boolean;
}

/** The sources of the chunks a reply used, each once. */
export function uniqueSources(context: RetrievedChunk[]): { name: string; itemId?: string }[] {
  const seen = new Set<string>();
  const out: { name: string; itemId?: string }[] = [];
  for (const c of context) {
    if (seen.has(c.source)) continue;
    seen.add(c.source);
    out.push({ name: c.source, ...(c.itemId ? { itemId: c.itemId } : {}) });
  }
  return out;
}
