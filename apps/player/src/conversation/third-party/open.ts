// Opens the provider a `connect` message names. The ElevenLabs WebSocket client is ours and
// small; the WebRTC (ElevenLabs) and Agora TEN connections need the providers' SDKs, each loaded
// only when an avatar needs it.
import type { OpenProvider } from './provider';

export const openProvider: OpenProvider = async (connect, events, options) => {
  if (connect.provider === 'agora_ten') {
    const { openAgoraTen } = await import('./agora');
    return openAgoraTen(connect, events, options);
  }
  if (connect.connectionType === 'webrtc') {
    const { openElevenLabsWebRtc } = await import('../elevenlabs/webrtc-session');
    return openElevenLabsWebRtc(connect, events, options);
  }
  const { openElevenLabsWebSocket } = await import('../elevenlabs/websocket-session');
  return openElevenLabsWebSocket(connect, events, options);
};
