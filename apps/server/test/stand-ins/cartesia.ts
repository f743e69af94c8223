// Cartesia: GET /voices?limit=&starting_after= with X-API-Key and Cartesia-Version;
// { data, has_more } pages.
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

export const CARTESIA_VOICES = [
  {
    id: 'a0e99841-438c-4a64-b679-ae501e7d6091',
    name: 'Barbershop Man',
    description: 'A friendly voice.',
    language: 'en',
    gender: 'masculine',
    is_owner: false,
    is_public: true,
    created_at: '2024-05-01T00:00:00Z',
  },
  {
    id: 'b7d50908-b17c-442d-ad8d-810c63997ed9',
    name: 'California Girl',
    description: 'Bright and warm.',
    language: 'en',
    gender: 'feminine',
    is_owner: false,
    is_public: true,
    created_at: '2024-05-01T00:00:00Z',
  },
  {
    id: 'c2ac25f9-ecc4-4f56-9095-651354df60c0',
    name: 'Mein Klon',
    description: 'Own voice.',
    language: 'de',
    gender: 'feminine',
    is_owner: true,
    is_public: false,
    created_at: '2024-06-01T00:00:00Z',
  },
];

export function cartesiaHandler(): Handler {
  return ({ req, res, path, query, header }) => {
    if (req.method !== 'GET' || path !== '/voices') return false;
    if (!header('cartesia-version')) return json(res, 400, { error: 'Cartesia-Version header is required' });
    if (header('x-api-key') !== STAND_IN_KEYS.cartesia) return json(res, 401, { error: 'Invalid API key' });
    const limit = Math.min(Number(query.get('limit') ?? '10'), 2);
    const after = query.get('starting_after');
    const start = after ? CARTESIA_VOICES.findIndex((v) => v.id === after) + 1 : 0;
    const data = CARTESIA_VOICES.slice(start, start + limit);
    return json(res, 200, { data, has_more: start + limit < CARTESIA_VOICES.length });
  };
}
