// Cartesia voices: GET {api}/voices?limit=100[&starting_after=id] with X-API-Key and
// Cartesia-Version; { data: [{ id, name, description, language, gender, is_owner }], has_more }
// (older API versions answer a plain array).
import { z } from 'zod';
import { CARTESIA_API_VERSION, type VoiceEntry } from '@parla/shared/providers';
import type { VoiceSource } from './voice-source';

const voice = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  language: z.string().nullish(),
  gender: z.string().nullish(),
  is_owner: z.boolean().nullish(),
});
const page = z.union([z.looseObject({ data: z.array(voice), has_more: z.boolean().nullish() }), z.array(voice)]);

const GENDER: Record<string, string> = { masculine: 'Male', feminine: 'Female', gender_neutral: 'Neutral' };

export const cartesiaVoices: VoiceSource<{ key: string }> = {
  request: (c, { key }, after) => ({
    url: `${c.endpoints.cartesia}/voices?limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`,
    headers: { 'x-api-key': key, 'cartesia-version': CARTESIA_API_VERSION },
  }),
  parse: (data): VoiceEntry[] | null => {
    const r = page.safeParse(data);
    if (!r.success) return null;
    const list = Array.isArray(r.data) ? r.data : r.data.data;
    return list.map((v) => ({
      id: v.id,
      name: v.name ?? v.id,
      languageCode: v.language ?? '',
      languageName: v.language ?? '',
      gender: GENDER[v.gender ?? ''] ?? v.gender ?? '',
      supportedEngines: [],
      custom: Boolean(v.is_owner),
    }));
  },
  next: (data) => {
    const r = page.safeParse(data);
    if (!r.success || Array.isArray(r.data) || !r.data.has_more) return undefined;
    return r.data.data.at(-1)?.id;
  },
};
