// POST /api/tts/list_voices and /api/stt/list_voices (spec 3 §7). Text-to-speech voices are read
// from each provider's own API with the keys of the form (or the avatar's stored ones);
// speech-to-text languages of Azure and Google come from the shared table.
import type { z } from 'zod';
import { LOOKUP_MAX_PAGES } from '@parla/shared/brain-limits';
import { SpeechVoiceProvider } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { DEFAULT_TTS_VOICES, ttsProviderInfo, type VoiceEntry } from '@parla/shared/providers';
import { BRAIN_MESSAGES, type SecretRef, type sttListVoicesRequest, type ttsListVoicesRequest } from '@parla/shared/schemas/brain';
import { AZURE_STT_LANGUAGES, GOOGLE_STT_LANGUAGES, type GoogleSttLanguage } from '@parla/shared/stt-languages';
import { AppError } from '../../lib/errors';
import { callProvider, isOk, providerRejected, providerUnreachable } from './provider-call';
import { obj, resolveKey, type KeyScope } from './stored-keys';
import { azureTtsVoices } from './voices/azure';
import { cartesiaVoices } from './voices/cartesia';
import { elevenLabsVoices } from './voices/elevenlabs';
import { neuphonicVoices } from './voices/neuphonic';
import { pollyVoices } from './voices/polly';
import type { VoiceSource } from './voices/voice-source';

export interface TtsVoicesResponse {
  ttsProvider: number;
  ttsVoices: VoiceEntry[];
}

export interface SttLanguagesResponse {
  sttProvider: 'azure' | 'google';
  languages: readonly string[] | readonly GoogleSttLanguage[];
}

async function readAll<K>(scope: KeyScope, c: BrainCatalogue, source: VoiceSource<K>, keys: K): Promise<VoiceEntry[]> {
  const all: VoiceEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < LOOKUP_MAX_PAGES; page++) {
    const { url, headers } = source.request(c, keys, cursor);
    const answer = await callProvider(scope.ctx, url, headers);
    if (!isOk(answer)) {
      if (answer.status >= 500) throw providerUnreachable();
      throw providerRejected(BRAIN_MESSAGES.voicesFailed, 'VOICES_FAILED');
    }
    const voices = source.parse(answer.data);
    if (!voices) throw providerRejected(BRAIN_MESSAGES.voicesFailed, 'VOICES_FAILED');
    all.push(...voices);
    cursor = source.next?.(answer.data);
    if (!cursor) break;
  }
  return all;
}

const required = (v: string | undefined, message: string): string => {
  if (!v) throw AppError.invalid(message);
  return v;
};

export async function listTtsVoices(
  scope: KeyScope,
  c: BrainCatalogue,
  body: z.infer<typeof ttsListVoicesRequest>,
): Promise<TtsVoicesResponse> {
  const info = ttsProviderInfo(body.ttsProvider);
  if (!info) throw AppError.invalid(BRAIN_MESSAGES.ttsProviderRequired);
  const mine = (ref: SecretRef) => (given: string | undefined) => resolveKey(scope, given, ref, (p) => obj(p.tts).provider === info.key);
  const region = () => {
    const r = required(body.ttsRegion, BRAIN_MESSAGES.regionRequired);
    if (!info.regions?.includes(r)) throw AppError.invalid(BRAIN_MESSAGES.regionRequired);
    return r;
  };
  let voices: VoiceEntry[];
  switch (info.value) {
    case SpeechVoiceProvider.Default:
      voices = [...DEFAULT_TTS_VOICES];
      break;
    case SpeechVoiceProvider.None:
      voices = [];
      break;
    case SpeechVoiceProvider.Azure:
      voices = await readAll(scope, c, azureTtsVoices, {
        key: required(await mine('tts')(body.azureSubscriptionKey), BRAIN_MESSAGES.subscriptionKeyRequired),
        region: region(),
      });
      break;
    case SpeechVoiceProvider.Polly:
      voices = await readAll(scope, c, pollyVoices(scope.ctx.now), {
        accessKey: required(await mine('tts')(body.pollyAccessKey), BRAIN_MESSAGES.accessKeyRequired),
        secretKey: required(await mine('tts_secret')(body.pollySecretKey), BRAIN_MESSAGES.secretKeyRequired),
        region: region(),
      });
      break;
    case SpeechVoiceProvider.ElevenLabs:
      voices = await readAll(scope, c, elevenLabsVoices, {
        key: required(await mine('tts')(body.elevenLabsAPIKey), BRAIN_MESSAGES.apiKeyRequired),
      });
      break;
    case SpeechVoiceProvider.Cartesia:
      voices = await readAll(scope, c, cartesiaVoices, {
        key: required(await mine('tts')(body.cartesiaAPIKey), BRAIN_MESSAGES.apiKeyRequired),
      });
      break;
    case SpeechVoiceProvider.Neuphonic:
      voices = await readAll(scope, c, neuphonicVoices, {
        key: required(await mine('tts')(body.neuphonicAPIKey), BRAIN_MESSAGES.apiKeyRequired),
      });
      break;
    default:
      throw AppError.invalid(BRAIN_MESSAGES.ttsProviderRequired);
  }
  voices.sort((a, b) => a.languageCode.localeCompare(b.languageCode) || a.name.localeCompare(b.name));
  return { ttsProvider: info.value, ttsVoices: voices };
}

export function listSttLanguages(body: z.infer<typeof sttListVoicesRequest>): SttLanguagesResponse {
  return body.sttProvider === 'azure'
    ? { sttProvider: 'azure', languages: AZURE_STT_LANGUAGES }
    : { sttProvider: 'google', languages: GOOGLE_STT_LANGUAGES };
}
