// ElevenLabs Conversational AI over the signed WebSocket URL: the protocol client, the agent's
// voice through Web Audio with the face following it, and the microphone streamed as PCM at the
// rate the agent asked for.
import { AgentVoice } from '../third-party/agent-voice';
import { MicCapture } from '../third-party/mic';
import type { ConnectInfo, ProviderEvents, ProviderOptions, ProviderSession } from '../third-party/provider';
import { ElevenLabsSocket, type AudioFormat } from './protocol';

export async function openElevenLabsWebSocket(
  connect: ConnectInfo,
  events: ProviderEvents,
  options: ProviderOptions,
): Promise<ProviderSession> {
  const url =
    connect.signedUrl ??
    (connect.agentId ? `wss://api.elevenlabs.io/v1/convai/conversation?agent_id=${encodeURIComponent(connect.agentId)}` : '');
  if (!url) throw new Error('The server gave no address for the ElevenLabs agent.');
  const voice = new AgentVoice(
    new AudioContext(),
    { onMouth: (s) => events.onMouth(s), onSpeaking: (on) => events.onSpeaking?.(on) },
    options.language,
  );
  voice.setSpeaker(options.speaker);
  let input: AudioFormat = { encoding: 'pcm', sampleRate: 16000 };
  let mic: MicCapture | null = null;
  let micWanted = false;
  let closed = false;

  const socket = new ElevenLabsSocket(url, {
    onStarted: (info) => (input = info.input),
    onAudio: (a) => voice.play(a.samples, a.sampleRate, a.alignment),
    onAgentResponse: (text) => {
      voice.text(text);
      events.onAgentText(text);
    },
    onAgentCorrection: (original, corrected) => events.onAgentCorrection?.(original, corrected),
    onUserTranscript: (text) => events.onUserText(text),
    onInterruption: () => voice.stop(),
    onClose: ({ clean, reason }) => {
      if (closed) return;
      shutdown();
      events.onEnd(clean ? 'The conversation has ended.' : `The conversation with the agent was cut off${reason ? `: ${reason}` : '.'}`);
    },
  });

  const applyMic = async () => {
    if (closed) return;
    if (!micWanted) {
      mic?.stop();
      mic = null;
      return;
    }
    if (mic) return;
    const m = new MicCapture(input.sampleRate, (pcm) => socket.sendAudio(pcm));
    mic = m;
    try {
      await m.start();
      if (mic !== m) m.stop();
    } catch {
      if (mic === m) mic = null;
      events.onError('The microphone is not available. You can type instead.');
    }
  };

  function shutdown() {
    closed = true;
    mic?.stop();
    mic = null;
    void voice.dispose();
  }

  try {
    await socket.start();
  } catch (err) {
    shutdown();
    throw err;
  }

  return {
    setMic(on) {
      micWanted = on;
      void applyMic();
    },
    setSpeaker: (on) => voice.setSpeaker(on),
    sendText(text) {
      socket.sendText(text);
      return true;
    },
    interrupt: () => voice.stop(),
    close() {
      if (closed) return;
      shutdown();
      socket.close();
    },
  };
}
