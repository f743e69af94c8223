// Azure text-to-speech voices: GET https://{region}.tts.speech.microsoft.com/cognitiveservices/voices/list
// with the subscription key (Ocp-Apim-Subscription-Key); the answer is an array of voices.
import { z } from 'zod';
import { withRegion } from '@parla/shared/provider-urls';
import type { VoiceEntry } from '@parla/shared/providers';
import type { VoiceSource } from './voice-source';

const azureVoices = z.array(
  z.looseObject({
    ShortName: z.string(),
    DisplayName: z.string().optional(),
    LocalName: z.string().optional(),
    Locale: z.string(),
    LocaleName: z.string().optional(),
    Gender: z.string().optional(),
    VoiceType: z.string().optional(),
  }),
);

export const azureTtsVoices: VoiceSource<{ key: string; region: string }> = {
  request: (c, { key, region }) => ({ url: withRegion(c.endpoints.azureTtsVoices, region), headers: { 'ocp-apim-subscription-key': key } }),
  parse: (data): VoiceEntry[] | null => {
    const r = azureVoices.safeParse(data);
    if (!r.success) return null;
    return r.data.map((v) => ({
      id: v.ShortName,
      name: v.DisplayName ?? v.LocalName ?? v.ShortName,
      languageCode: v.Locale,
      languageName: v.LocaleName ?? v.Locale,
      gender: v.Gender ?? '',
      supportedEngines: v.VoiceType ? [v.VoiceType] : [],
      custom: false,
    }));
  },
};
