// Neuphonic voices: GET {api}/voices with x-api-key; { data: { voices: [{ voice_id, name,
// lang_code, tags }] } } (some answers call the name voice_name).
import { z } from 'zod';
import type { VoiceEntry } from '@parla/shared/providers';
import type { VoiceSource } from './voice-source';

const answer = z.looseObject({
  data: z.looseObject({
    voices: z.array(
      z.looseObject({
        voice_id: z.string().nullish(),
        id: z.string().nullish(),
        name: z.string().nullish(),
        voice_name: z.string().nullish(),
        lang_code: z.string().nullish(),
      }),
    ),
  }),
});

export const neuphonicVoices: VoiceSource<{ key: string; langCode?: string }> = {
  request: (c, { key }) => ({ url: `${c.endpoints.neuphonic}/voices`, headers: { 'x-api-key': key } }),
  parse: (data): VoiceEntry[] | null => {
    const r = answer.safeParse(data);
    if (!r.success) return null;
    return r.data.data.voices
      .filter((v) => v.voice_id ?? v.id)
      .map((v) => {
        const id = (v.voice_id ?? v.id)!;
        return {
          id,
          name: v.name ?? v.voice_name ?? id,
          languageCode: v.lang_code ?? '',
          languageName: v.lang_code ?? '',
          gender: '',
          supportedEngines: [],
          custom: false,
        };
      });
  },
};
