// The key that lets the end user of one conversation download its transcript (Enable Transcript
// Download): derived from the server's signing key and the conversation id, given only in that
// conversation's `ready`, compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function transcriptKey(signingKey: Buffer, conversationId: string): string {
  return createHmac('sha256', signingKey).update(`transcript:${conversationId}`).digest('base64url');
}

export function transcriptKeyMatches(signingKey: Buffer, conversationId: string, key: string): boolean {
  const want = Buffer.from(transcriptKey(signingKey, conversationId));
  const got = Buffer.from(key);
  return got.length === want.length && timingSafeEqual(got, want);
}
