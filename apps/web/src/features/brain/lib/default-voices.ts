// The "Default" voice list of the Brain tab (issue 35 item 2, decision 126), the same rule as the
// server's (runtime/speech-config.ts): with the embedded voice on and no speech server, an English
// avatar is spoken by a built-in voice (listed alone, the one fitting the face chosen until the
// customer picks another); another language has none, so its list is the browser's voices and a
// note says so; with a speech server, every voice is listed as before.
import { embeddedVoiceFor, noEmbeddedVoiceNote, speaksEmbedded } from '@parla/shared/embedded-voices';
import { spokenLanguageName } from '@parla/shared/languages';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import type { VoiceEntry } from '@parla/shared/providers';
import { SpeechVoiceProvider } from '@parla/shared/enums';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';

export interface DefaultVoiceChoice {
  list: VoiceEntry[];
  /** The voice to show chosen when the saved one is not in the list (the server speaks it then). */
  fitting: string | undefined;
  /** The note under the list where the language has no built-in voice. */
  note: string | null;
}

export const isBuiltIn = (v: VoiceEntry): boolean => v.supportedEngines.includes('embedded');

export function defaultVoiceChoice(
  c: Pick<BrainCatalogue, 'defaultVoices' | 'embeddedVoice' | 'serverSpeech'>,
  language: string,
  gender: string | undefined,
): DefaultVoiceChoice {
  const all = [...c.defaultVoices];
  if (!c.embeddedVoice || c.serverSpeech) return { list: all, fitting: all[0]?.id, note: null };
  if (!speaksEmbedded(language || 'en-US')) {
    const browser = all.filter((v) => !isBuiltIn(v));
    return { list: browser, fitting: browser[0]?.id, note: noEmbeddedVoiceNote(spokenLanguageName(language) || language) };
  }
  return { list: all.filter(isBuiltIn), fitting: embeddedVoiceFor(gender, language || 'en-US'), note: null };
}

/** The form as it opens: a "Default" voice the list does not offer shows as the voice the server
 *  speaks instead (set here, not after, so opening the Brain tab is not an unsaved change). */
export function withShownVoice(
  f: BrainForm,
  c: Pick<BrainCatalogue, 'defaultVoices' | 'embeddedVoice' | 'serverSpeech'>,
  gender: string | undefined,
): BrainForm {
  const p = f.ttsDetails.ttsProvider;
  if (f.setupMode !== 'Simple' && p !== SpeechVoiceProvider.Default && p !== null) return f;
  const own = defaultVoiceChoice(c, f.sttDetails.sttLanguage, gender);
  if (!own.fitting || own.list.some((v) => v.id === f.ttsDetails.ttsVoice)) return f;
  return { ...f, ttsDetails: { ...f.ttsDetails, ttsVoice: own.fitting } };
}
