// Neuphonic: GET /voices with x-api-key; { data: { voices: [...] } }.
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

export const NEUPHONIC_VOICES = [
  { voice_id: 'e564ba7e-aa8d-46a2-96a8-8dffedade48f', name: 'Holly', lang_code: 'en', tags: ['female', 'british'] },
  { voice_id: 'fc854436-2dac-4d21-aa69-ae17b54e98eb', name: 'Emily', lang_code: 'en', tags: ['female', 'american'] },
  { voice_id: 'b19687fd-c5c9-4bda-9d52-756c3b10c88e', name: 'Miguel', lang_code: 'es', tags: ['male'] },
];

export function neuphonicHandler(): Handler {
  return ({ req, res, path, header }) => {
    if (req.method !== 'GET' || path !== '/voices') return false;
    if (header('x-api-key') !== STAND_IN_KEYS.neuphonic) return json(res, 403, { detail: 'Invalid API key.' });
    return json(res, 200, { data: { voices: NEUPHONIC_VOICES } });
  };
}
