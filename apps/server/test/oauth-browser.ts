// The browser's side of the OAuth gate in tests: the cookie /api/oauth/start sets, to send back
// with the callback as a browser would (decision 011).
import type { LightMyRequestResponse } from 'fastify';

/** `name=value` of the cookie a start answer set ('' when none). */
export function browserCookie(start: LightMyRequestResponse): string {
  const header = start.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  return first ? first.split(';')[0]!.trim() : '';
}
