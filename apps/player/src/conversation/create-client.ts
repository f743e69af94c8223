// The one place that decides how the player converses. Today: the in-page echo. The
// conversation runtime replaces this with its WebSocket client.
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { ConversationClient } from './conversation-client';
import { EchoClient } from './echo-client';

export function createConversationClient(avatar: PublicAvatar): ConversationClient {
  return new EchoClient(avatar.engine);
}
