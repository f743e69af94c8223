// Turn-taking presets in people's words (issue 39): each sets the interruption and voice-activity
// numbers together; the numbers stay editable, and a form whose numbers match no preset is
// "Custom". Balanced is the defaults (LiveKit Agents' and OpenAI server_vad's). Patient waits
// longer before answering and needs two words and 0.8 s to be interrupted, so "uh-huh" and a
// cough do not cut the avatar off (the complaint users of these systems make most often);
// snappy answers after shorter pauses and yields at once.

export type TurnTakingPresetId = 'patient' | 'balanced' | 'snappy';

export interface TurnTakingPreset {
  id: TurnTakingPresetId;
  label: string;
  description: string;
  interrupt_handling: { allow_interruptions: boolean; min_interruption_duration: number; min_interruption_words: number };
  /** Cascading modes (VAD_OPTIONS keys). */
  vad: Record<string, number>;
  /** Speech-to-speech (REALTIME_VAD_OPTIONS keys). */
  realtimeVad: Record<string, number>;
}

export const TURN_TAKING_PRESETS: readonly TurnTakingPreset[] = [
  {
    id: 'patient',
    label: 'Patient listener',
    description: 'Waits for longer pauses before answering and ignores short sounds like "uh-huh". For callers who think aloud.',
    interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0.8, min_interruption_words: 2 },
    vad: { min_endpointing_delay: 1, max_endpointing_delay: 5, min_silence_duration: 0.8, activation_threshold: 0.6 },
    realtimeVad: { threshold: 0.6, prefix_padding_ms: 300, silence_duration_ms: 900 },
  },
  {
    id: 'balanced',
    label: 'Balanced',
    description: 'The defaults: answers after about half a second of silence and stops when the visitor talks over it.',
    interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0.5, min_interruption_words: 0 },
    vad: { min_endpointing_delay: 0.5, max_endpointing_delay: 3, min_silence_duration: 0.55, activation_threshold: 0.5 },
    realtimeVad: { threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
  },
  {
    id: 'snappy',
    label: 'Snappy',
    description: 'Answers after short pauses and yields at once. For quick questions; may answer before a slow speaker is done.',
    interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0.3, min_interruption_words: 0 },
    vad: { min_endpointing_delay: 0.3, max_endpointing_delay: 1.5, min_silence_duration: 0.35, activation_threshold: 0.5 },
    realtimeVad: { threshold: 0.5, prefix_padding_ms: 200, silence_duration_ms: 300 },
  },
];

type Loose = Record<string, unknown>;
const same = (a: unknown, b: number | boolean) => (typeof b === 'boolean' ? a === b : a !== '' && a !== null && Number(a) === b);

/** The preset whose numbers the form holds (form values may be typed strings), or null: custom. */
export function presetMatching(
  values: { interrupt_handling?: Loose; vad_options?: Loose },
  speechToSpeech: boolean,
): TurnTakingPresetId | null {
  for (const p of TURN_TAKING_PRESETS) {
    const vad = speechToSpeech ? p.realtimeVad : p.vad;
    const ih = p.interrupt_handling as Record<string, number | boolean>;
    if (
      Object.entries(ih).every(([k, v]) => same(values.interrupt_handling?.[k], v)) &&
      Object.entries(vad).every(([k, v]) => same(values.vad_options?.[k], v))
    )
      return p.id;
  }
  return null;
}
