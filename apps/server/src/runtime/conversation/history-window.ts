// The conversation so far as the brain is given it: the last 50 messages and at most 32 KB of
// text (spec: bounded history), newest kept. One message larger than the whole window is cut
// to fit rather than dropped, so the latest turn always reaches the brain.
import type { ChatMessage } from '../types';

export const HISTORY_MAX_MESSAGES = 50;
export const HISTORY_MAX_BYTES = 32 * 1024;

const size = (m: ChatMessage) => Buffer.byteLength(m.content, 'utf8') + 64;

export function historyWindow(all: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let bytes = 0;
  for (let i = all.length - 1; i >= 0 && out.length < HISTORY_MAX_MESSAGES; i--) {
    const m = all[i]!;
    const n = size(m);
    if (bytes + n > HISTORY_MAX_BYTES) {
      if (!out.length)
        out.push({
          ...m,
          content: Buffer.from(m.content, 'utf8')
            .subarray(0, HISTORY_MAX_BYTES - 64)
            .toString('utf8'),
        });
      break;
    }
    out.push(m);
    bytes += n;
  }
  return out.reverse();
}
