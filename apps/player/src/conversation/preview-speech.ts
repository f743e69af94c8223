// The editor's preview speaks with the voice visitors will hear (issue 36 item 6): the preview
// player has no server conversation (decision 125), so it asks the editor around it, which is
// signed in, to have the server say each reply in the draft's built-in voice
// (POST /api/tts/preview), by postMessage on the same origin only.
import { isEmbeddedVoiceId, PREVIEW_SPEECH_MESSAGE, type PreviewSpeech } from '@parla/shared/embedded-voice-ids';

/** How long a reply waits for its audio before it is shown without it. */
const ANSWER_TIMEOUT_MS = 15_000;

export type PreviewSay = (text: string) => Promise<PreviewSpeech | null>;

interface Answer {
  type: string;
  id?: number;
  speech?: PreviewSpeech;
}

/** The speaker for `?voice=` in a framed preview; null where there is no voice or no editor around. */
export function previewSpeaker(search: string, self: Window = window): PreviewSay | null {
  const voice = new URLSearchParams(search).get('voice') ?? '';
  if (!isEmbeddedVoiceId(voice) || self.parent === self) return null;
  const waiting = new Map<number, (speech: PreviewSpeech | null) => void>();
  let next = 0;
  self.addEventListener('message', (event: MessageEvent<Answer>) => {
    if (event.source !== self.parent || event.origin !== self.location.origin) return;
    const m = event.data;
    if (m?.type !== PREVIEW_SPEECH_MESSAGE || typeof m.id !== 'number') return;
    waiting.get(m.id)?.(m.speech && typeof m.speech.audio === 'string' ? m.speech : null);
    waiting.delete(m.id);
  });
  return (text) =>
    new Promise((resolve) => {
      const id = ++next;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(null);
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, (speech) => {
        clearTimeout(timer);
        resolve(speech);
      });
      self.parent.postMessage({ type: PREVIEW_SPEECH_MESSAGE, id, text, voice }, self.location.origin);
    });
}

/** The speech as one reply audio frame (the conversations' shape), the turn's last. */
export function previewFrame(turnId: string, speech: PreviewSpeech) {
  const bin = atob(speech.audio);
  const audio = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) audio[i] = bin.charCodeAt(i);
  return {
    header: {
      turnId,
      seq: 0,
      format: 'pcm16' as const,
      sampleRate: speech.sampleRate,
      ...(speech.visemes ? { visemes: speech.visemes } : {}),
      ...(speech.words ? { words: speech.words } : {}),
      last: true,
    },
    audio,
  };
}
