// The one place that decides how the player converses: saved avatars talk to the conversation
// runtime over its WebSocket; the editor's preview of an unsaved appearance has no brain yet, so
// it echoes in the page (in the draft's built-in voice, asked of the editor around it).
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { ConversationClient } from './conversation-client';
import { EchoClient } from './echo-client';
import { previewSpeaker } from './preview-speech';
import { WsConversationClient } from './ws-client';

export function createConversationClient(
  avatar: PublicAvatar,
  location: Pick<Location, 'search' | 'pathname'> = window.location,
): ConversationClient {
  // The preview speaks in the draft's built-in voice (`voice`) when the editor frames it.
  if (avatar.id === 'preview') return new EchoClient(avatar.engine, typeof window === 'undefined' ? null : previewSpeaker(location.search));
  const q = new URLSearchParams(location.search);
  const grant = q.get('oauthGrant');
  q.delete('oauthGrant');
  const rest = q.toString();
  return new WsConversationClient({
    avatarId: avatar.id,
    token: q.get('token'),
    oauthGrant: grant,
    backPath: `${location.pathname}${rest ? `?${rest}` : ''}`,
    language: avatar.language,
  });
}
