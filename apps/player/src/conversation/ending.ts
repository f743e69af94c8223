// How a conversation ended, in the end user's words, from the server's `bye` reason and the
// socket's close code (docs/api.md, "Conversations and pipeline nodes"). `retry` says what the
// player offers: `auto` reconnects with backoff (a transient drop: a node or the server process
// went away, the network broke), `manual` shows "Start again", `none` offers nothing (the user
// ended it).
import type { ByeReason } from '@parla/shared/schemas/conversation';

/** Why the conversation ended, as the host page's `disconnected {reason}` names it. */
export type EndReason =
  | 'user'
  | 'idle'
  | 'demo'
  | 'usage'
  | 'node_lost'
  | 'server'
  | 'network'
  | 'refused'
  | 'origin'
  | 'busy'
  | 'rate_limited'
  | 'too_large'
  | 'engine';

export interface ConversationEnd {
  reason: EndReason;
  message: string;
  retry: 'auto' | 'manual' | 'none';
}

export interface EndFacts {
  /** The WebSocket close code. */
  code: number;
  /** The server's `bye` reason, when it sent one before closing. */
  bye?: ByeReason;
  /** The last `error` message the server sent before closing (refusals explain themselves). */
  error?: string;
  /** The conversation had started (`ready` came). */
  started: boolean;
}

const TRANSIENT = 'The connection to the avatar was lost.';

export function describeEnd(f: EndFacts): ConversationEnd {
  const code = f.code;
  if (f.bye === 'idle' || code === 4110) {
    return { reason: 'idle', message: 'The conversation ended because nothing was said for a while.', retry: 'manual' };
  }
  if (f.bye === 'demo' || code === 4111) return { reason: 'demo', message: "This avatar's demo time is over.", retry: 'manual' };
  if (f.bye === 'usage' || code === 4011) {
    return { reason: 'usage', message: f.error ?? "This avatar's conversation minutes are used up for this month.", retry: 'manual' };
  }
  if (f.bye === 'node_lost' || code === 4112) return { reason: 'node_lost', message: TRANSIENT, retry: 'auto' };
  if (code === 4113 || code === 1001 || code === 1012)
    return { reason: 'server', message: 'The avatar server is restarting.', retry: 'auto' };
  if (code === 4129) return { reason: 'rate_limited', message: f.error ?? 'Too many messages. Please slow down.', retry: 'manual' };
  if (code === 1009) return { reason: 'too_large', message: 'The message was too large to send.', retry: 'manual' };
  if (code === 4103)
    return { reason: 'origin', message: f.error ?? 'This page may not open conversations with this avatar.', retry: 'none' };
  if (code === 4012 || code === 4017) {
    return { reason: 'busy', message: f.error ?? 'The avatar is busy right now. Please try again in a moment.', retry: 'manual' };
  }
  if (code > 4000 && code < 4100)
    return { reason: 'refused', message: f.error ?? 'The avatar could not start the conversation.', retry: 'manual' };
  if (f.bye === 'engine')
    return { reason: 'engine', message: f.error ?? 'The avatar could not continue the conversation.', retry: 'manual' };
  if (f.bye === 'server')
    return { reason: 'server', message: f.error ?? 'The avatar server ended the conversation.', retry: f.error ? 'manual' : 'auto' };
  if (f.bye === 'client') return { reason: 'user', message: 'The conversation ended.', retry: 'manual' };
  // No bye: the socket broke (a process was killed, the network dropped) or never opened.
  if (code === 1000) return { reason: 'server', message: 'The conversation ended.', retry: 'manual' };
  return { reason: 'network', message: f.started ? TRANSIENT : 'The avatar could not be reached.', retry: 'auto' };
}

/** Delay before reconnect attempt `n` (0-based): 1 s, 2 s, 4 s, 8 s, 15 s. */
export function reconnectDelay(n: number): number {
  return Math.min(15_000, 1000 * 2 ** n);
}

/** Attempts before the player gives up and offers "Start again". */
export const RECONNECT_ATTEMPTS = 5;
