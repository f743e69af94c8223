// Choosing a browser voice: the avatar's named voice when the browser has it, else one for the
// avatar's language (preferring the hinted gender by the usual words in voice names).
import type { VoiceGender } from '@parla/shared/schemas/catalogue';

const FEMALE =
  /female|woman|zira|susan|samantha|victoria|karen|moira|tessa|fiona|amelie|anna|helena|monica|paulina|joanna|salli|kimberly|ivy|aria|jenny|sonia|libby|natasha/i;
const MALE = /\bmale\b|\bman\b|david|mark|daniel|alex|fred|thomas|jorge|diego|luca|yuri|matthew|joey|justin|guy|ryan|george|william/i;

export function pickVoice(
  voices: readonly SpeechSynthesisVoice[],
  language: string,
  gender: VoiceGender,
  name?: string,
): SpeechSynthesisVoice | null {
  if (name) {
    const named = voices.find((v) => v.name === name);
    if (named) return named;
  }
  const lang = language.toLowerCase();
  const base = lang.split('-')[0]!;
  const exact = voices.filter((v) => v.lang.toLowerCase().replace('_', '-') === lang);
  const sameBase = voices.filter((v) => v.lang.toLowerCase().startsWith(base));
  const pool = exact.length ? exact : sameBase;
  if (pool.length === 0) return null;
  const wanted = gender === 'female' ? FEMALE : gender === 'male' ? MALE : null;
  return (wanted && pool.find((v) => wanted.test(v.name))) || pool.find((v) => v.localService) || pool[0]!;
}

/** Voices load asynchronously in some browsers; wait briefly for them. */
export function loadVoices(
  timeoutMs = 600,
  synth: SpeechSynthesis | null = typeof speechSynthesis === 'undefined' ? null : speechSynthesis,
): Promise<SpeechSynthesisVoice[]> {
  if (!synth) return Promise.resolve([]);
  const now = synth.getVoices();
  if (now.length) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => {
      synth.removeEventListener('voiceschanged', done);
      resolve(synth.getVoices());
    };
    synth.addEventListener('voiceschanged', done);
    setTimeout(done, timeoutMs);
  });
}
