// The REST endpoint's callback token of a conversation: an HMAC of the conversation id under a
// key derived from SECRET_KEY, so any server process can check a callback it receives without
// asking the process that holds the conversation (decision 630).
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/tokens';

export class CallbackTokens {
  private readonly key: Buffer;

  /** `secret`: a key already derived from SECRET_KEY (the context's); a purpose label makes this
   *  key a different one. */
  constructor(secret: Buffer) {
    this.key = createHmac('sha256', secret).update('parla:conversation-callback').digest();
  }

  tokenOf(conversationId: string): string {
    return createHmac('sha256', this.key).update(conversationId).digest('base64url');
  }

  check(conversationId: string, token: string | undefined): boolean {
    return !!token && safeEqual(token, this.tokenOf(conversationId));
  }
}
