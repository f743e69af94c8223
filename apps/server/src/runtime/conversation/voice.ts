// What the ready message says about speech (decision 611): whether the player streams its
// microphone (listen 'server') or uses the browser's recognition, whether replies come as
// audio frames, and the VAD and interruption options the player applies.
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import { DEFAULT_TURN_SETTINGS, type EngineConfig, type TurnSettings } from '../types';

type Ready = Extract<ServerMessage, { type: 'ready' }>;

export function readyVoice(engine: EngineConfig, echo: boolean): Pick<Ready, 'listen' | 'audio' | 'vad'> {
  if (echo) return { listen: 'browser' };
  let listen = false;
  let audio = false;
  let turn: TurnSettings = DEFAULT_TURN_SETTINGS;
  if (engine.kind === 'pipeline') {
    listen = audio = true;
    turn = engine.turn;
  } else if (engine.kind === 'realtime') {
    listen = audio = true;
  } else if (engine.speech) {
    listen = engine.speech.stt !== null;
    audio = engine.speech.tts !== null;
    turn = engine.speech.turn;
  }
  return {
    listen: listen ? 'server' : 'browser',
    ...(audio ? { audio: true } : {}),
    vad: {
      activation_threshold: turn.activationThreshold,
      min_speech_duration: turn.minSpeechDuration,
      min_silence_duration: turn.minSilenceDuration,
      prefix_padding_duration: turn.prefixPaddingDuration,
      max_buffered_speech: turn.maxBufferedSpeech,
      allow_interruptions: turn.allowInterruptions,
      min_interruption_duration: turn.minInterruptionDuration,
    },
  };
}
