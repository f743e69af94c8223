// The Brain tab's Test of the speech recognition (issue 39 item 3): the built-in voice says a
// known sentence, the avatar's server STT (its provider, key, language and model, as the
// conversations use them, through the guarded client) transcribes it, and the outcome is said in
// the customer's words, with what was heard.
import { randomUUID } from 'node:crypto';
import {
  BRAIN_TEST_MESSAGES as M,
  BRAIN_TEST_TIMEOUT_MS,
  HEARING_TEST_SENTENCE,
  type BrainTestHearing,
} from '@parla/shared/schemas/brain-test';
import { embeddedSynthesize, embeddedTts } from '../../runtime/engines/embedded/embedded-tts';
import { transcribe } from '../../runtime/engines/speech';
import type { EngineDeps, SttConfig } from '../../runtime/types';

const HEARD_CHARS = 300;

export async function testHearing(
  deps: Pick<EngineDeps, 'outbound' | 'voices'>,
  stt: SttConfig,
  failureWords: (err: unknown) => string | null,
): Promise<BrainTestHearing> {
  if (!deps.voices) return { ok: false, message: M.noTestVoice, heard: null };
  const signal = AbortSignal.timeout(BRAIN_TEST_TIMEOUT_MS);
  try {
    const said = await embeddedSynthesize(deps.voices, embeddedTts('slt'), HEARING_TEST_SENTENCE, `hearing-${randomUUID()}`, signal);
    const heard = await Promise.race([
      transcribe(deps.outbound, stt, Buffer.from(said.audio, 'base64'), said.sampleRate ?? 16000),
      new Promise<never>((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
    const text = heard.trim().slice(0, HEARD_CHARS);
    return text ? { ok: true, message: M.heard, heard: text } : { ok: false, message: M.heardNothing, heard: '' };
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    const words = timedOut ? M.timeout : (failureWords(err) ?? (err instanceof Error ? `${err.message}.` : String(err)));
    return { ok: false, message: M.hearingFailed(words), heard: null };
  }
}
