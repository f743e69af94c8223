// Who is on the other end of a conversation: read from the client's optional `hello` frame,
// with defaults (the IP stands in for a device id the player did not send).
import { helloMessage } from '@parla/shared/schemas/conversation';
import { firstIssueMessage } from '@parla/shared/zod-messages';
export interface ClientInfo {
  userName: string;
  userId: string;
  deviceId: string;
  deviceOS: string;
  locale: string;
  spokenLanguage: string;
}

function str(v: unknown, max = 200): string {
  return typeof v === 'string' ? v.slice(0, max) : '';
}

export function clientInfo(hello: Record<string, unknown>, ip: string): ClientInfo {
  const deviceId = str(hello.deviceId) || `ip:${ip}`;
  return {
    userName: str(hello.userName) || 'Guest',
    userId: str(hello.userId) || deviceId,
    deviceId,
    deviceOS: str(hello.deviceOS) || 'Unknown',
    locale: str(hello.locale, 35) || 'en-US',
    spokenLanguage: str(hello.spokenLanguage, 35) || str(hello.locale, 35) || 'en-US',
  };
}

export type FirstFrame = { hello: Record<string, unknown>; pending: string | null } | { refused: string };

/** The first frame. A hello is checked with the protocol's own schema: one the server could not
 *  store (a NUL in a name, which PostgreSQL refuses, or a wrong type) refuses the conversation
 *  with invalid params before anything is recorded (decision 209). Any other first frame is kept
 *  to be handled as the conversation's first message once it is ready. */
export function readFirstFrame(first: string | null): FirstFrame {
  if (!first) return { hello: {}, pending: null };
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    return { hello: {}, pending: first }; // not JSON: answered as a frame once the conversation is ready
  }
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'hello') return { hello: {}, pending: first };
  const parsed = helloMessage.safeParse(value);
  if (!parsed.success) return { refused: firstIssueMessage(parsed.error) };
  return { hello: parsed.data, pending: null };
}
