// The avatar's VAD options (ready.vad, seconds, LiveKit's names; spec 3 §9) → the segmenter's
// frame counts. Absent options take the spec's defaults.
export interface AvatarVad {
  activation_threshold: number;
  min_speech_duration: number;
  min_silence_duration: number;
  prefix_padding_duration: number;
  max_buffered_speech: number;
  allow_interruptions?: boolean;
  min_interruption_duration?: number;
}

/** Spec 3 §9 defaults. */
export const DEFAULT_VAD: AvatarVad = {
  activation_threshold: 0.5,
  min_speech_duration: 0.05,
  min_silence_duration: 0.55,
  prefix_padding_duration: 0.5,
  max_buffered_speech: 60,
};

export interface SegmenterOptions {
  /** A frame at or above this speech probability is speech. */
  positive: number;
  /** A frame below this is silence (in between keeps the current state's count). */
  negative: number;
  /** Speech frames in a row before speech starts. */
  minSpeechFrames: number;
  /** Silent frames in a row before speech ends. */
  minSilenceFrames: number;
  /** Frames before the start sent with it. */
  prefixFrames: number;
  /** Frames of one utterance before it is cut (a new one starts with the next speech). */
  maxSpeechFrames: number;
}

/** Silero's usual gap between the start and end thresholds. */
const HYSTERESIS = 0.15;

function seconds(value: number | undefined, fallback: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(value, max) : fallback;
}

export function segmenterOptions(vad: Partial<AvatarVad> | undefined, frameMs: number): SegmenterOptions {
  const v = vad ?? {};
  const threshold =
    typeof v.activation_threshold === 'number' && v.activation_threshold >= 0 && v.activation_threshold <= 1
      ? v.activation_threshold
      : DEFAULT_VAD.activation_threshold;
  const frames = (s: number) => Math.round((s * 1000) / frameMs);
  return {
    positive: threshold,
    negative: Math.max(0, threshold - HYSTERESIS),
    minSpeechFrames: Math.max(1, frames(seconds(v.min_speech_duration, DEFAULT_VAD.min_speech_duration, 10))),
    minSilenceFrames: Math.max(1, frames(seconds(v.min_silence_duration, DEFAULT_VAD.min_silence_duration, 10))),
    prefixFrames: frames(seconds(v.prefix_padding_duration, DEFAULT_VAD.prefix_padding_duration, 5)),
    maxSpeechFrames: Math.max(
      1,
      frames(seconds(v.max_buffered_speech, DEFAULT_VAD.max_buffered_speech, 600) || DEFAULT_VAD.max_buffered_speech),
    ),
  };
}
