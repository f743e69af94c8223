// ElevenLabs voices: GET {api}/v1/voices with xi-api-key; { voices: [{ voice_id, name, category,
// labels: { gender, accent, language? }, verified_languages?: [{ language, locale }] }] }.
import { z } from 'zod';
import type { VoiceEntry } from '@parla/shared/providers';
import type { VoiceSource } from './voice-source';

const answer = z.looseObject({
  voices: z.array(
    z.looseObject({
      voice_id: z.string(),
      name: z.string().nullish(),
      category: z.string().nullish(),
      labels: z.record(z.string(), z.string().nullish()).nullish(),
      verified_languages: z.array(z.looseObject({ language: z.string().nullish(), locale: z.string().nullish() })).nullish(),
    }),
  ),
});

export const elevenLabsVoices: VoiceSource<{ key: string }> = {
  request: (c, { key }) => ({ url: `${c.endpoints.elevenlabs}/voices`, headers: { 'xi-api-key': key } }),
  parse: (data): VoiceEntry[] | null => {
    const r = answer.safeParse(data);
    if (!r.success) return null;
    return r.data.voices.map((v) => {
      const lang = v.verified_languages?.[0];
      const code = lang?.locale ?? lang?.language ?? v.labels?.language ?? 'multi';
      return {
        id: v.voice_id,
        name: v.name ?? v.voice_id,
        languageCode: code,
        languageName: v.labels?.accent ? `${code} (${v.labels.accent})` : code,
        gender: v.labels?.gender ?? '',
        supportedEngines: [],
        // Premade voices are ElevenLabs'; cloned, generated and professional ones are the customer's.
        custom: (v.category ?? 'premade') !== 'premade',
      };
    });
  },
};
