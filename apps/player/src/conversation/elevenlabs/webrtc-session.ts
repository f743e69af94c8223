// ElevenLabs Conversational AI over WebRTC: the server issued a conversation token; the
// provider's own SDK (@elevenlabs/client, loaded only here) joins the agent's room, plays its
// voice and takes the microphone. The mouth follows the output level and spectrum the SDK
// reports; the chat shows the agent's and the user's messages as the SDK delivers them.
import { Conversation, type VoiceConversation } from '@elevenlabs/client';
// The SDK's resampling worklet, bundled: without a path the SDK fetches it from a CDN at run time
// (browsers without sample-rate constraints, Firefox among them), which the player never does.
import libsampleratePath from '@alexanderolsen/libsamplerate-js/dist/libsamplerate.worklet.js?url';
import { LevelMouth } from '../../lipsync/level';
import type { ConnectInfo, ProviderEvents, ProviderOptions, ProviderSession } from '../third-party/provider';

export async function openElevenLabsWebRtc(
  connect: ConnectInfo,
  events: ProviderEvents,
  options: ProviderOptions,
): Promise<ProviderSession> {
  if (!connect.conversationToken) throw new Error('The server gave no conversation token for the ElevenLabs agent.');
  let conversation: VoiceConversation | null = null;
  let ended = false;
  const mouth = new LevelMouth(
    () => conversation?.getOutputVolume() ?? 0,
    () => conversation?.getOutputByteFrequencyData() ?? [],
  );
  conversation = (await Conversation.startSession({
    conversationToken: connect.conversationToken,
    connectionType: 'webrtc',
    textOnly: false,
    libsampleratePath,
    onMessage: ({ message, role }) => (role === 'user' ? events.onUserText(message) : events.onAgentText(message)),
    onAgentResponseCorrection: (c) => events.onAgentCorrection?.(c.original_agent_response, c.corrected_agent_response),
    onModeChange: ({ mode }) => {
      const speaking = mode === 'speaking';
      events.onMouth(speaking ? mouth : null);
      events.onSpeaking?.(speaking);
    },
    onError: (message) => events.onError(message),
    onDisconnect: (details) => {
      events.onMouth(null);
      if (ended) return;
      ended = true;
      events.onEnd(
        details.reason === 'error' ? `The conversation with the agent was cut off: ${details.message}` : 'The conversation has ended.',
      );
    },
  })) as VoiceConversation;
  conversation.setVolume({ volume: options.speaker ? 1 : 0 });
  return {
    setMic: (on) => conversation?.setMicMuted(!on),
    setSpeaker: (on) => conversation?.setVolume({ volume: on ? 1 : 0 }),
    sendText(text) {
      conversation?.sendUserMessage(text);
      return true;
    },
    interrupt: () => events.onMouth(null),
    close() {
      ended = true;
      events.onMouth(null);
      void conversation?.endSession();
    },
  };
}
