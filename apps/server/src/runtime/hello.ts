// The first client frame of a conversation. A hello is checked with the protocol's own schema
// (helloMessage): one the server could not store (a NUL in a name, which PostgreSQL refuses, or a
// wrong type) refuses the conversation with invalid params (error 7, close 4007) before anything
// is recorded, instead of failing later with a generic error. Any other first frame is handled as
// the conversation's first message once it has started.
import { INVALID_PARAMS_FALLBACK } from '@parla/shared/errors';
import { helloMessage } from '@parla/shared/schemas/conversation';

export type FirstFrame = { hello: Record<string, unknown>; pending: string | null } | { refused: string };

export function readFirstFrame(first: string | null): FirstFrame {
  if (!first) return { hello: {}, pending: null };
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    return { hello: {}, pending: first };
  }
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'hello') return { hello: {}, pending: first };
  const parsed = helloMessage.safeParse(value);
  if (!parsed.success) return { refused: parsed.error.issues[0]?.message ?? INVALID_PARAMS_FALLBACK };
  return { hello: parsed.data, pending: null };
}
