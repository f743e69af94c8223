// ElevenLabs: GET /v1/voices (xi-api-key) and the conversational agents' token endpoint
// GET /v1/convai/conversation/token?agent_id=... (public agents need no key, private ones do).
import { json, type Handler } from './http';
import { STAND_IN_AGENTS, STAND_IN_KEYS } from './keys';

export const ELEVENLABS_VOICES = [
  {
    voice_id: '21m00Tcm4TlvDq8ikWAM',
    name: 'Rachel',
    category: 'premade',
    labels: { accent: 'american', gender: 'female', age: 'young', use_case: 'narration' },
    verified_languages: [{ language: 'en', model_id: 'eleven_multilingual_v2', accent: 'american', locale: 'en-US' }],
  },
  {
    voice_id: 'pNInz6obpgDQGcFmaJgB',
    name: 'Adam',
    category: 'premade',
    labels: { accent: 'american', gender: 'male', age: 'middle aged' },
    verified_languages: [],
  },
  {
    voice_id: 'StandInClonedVoice01',
    name: 'My cloned voice',
    category: 'cloned',
    labels: { gender: 'female', language: 'de' },
    verified_languages: [],
  },
];

const unauthorized = { detail: { status: 'invalid_api_key', message: 'Invalid API key' } };

export function elevenLabsHandler(): Handler {
  return ({ req, res, path, query, header }) => {
    if (req.method !== 'GET') return false;
    const key = header('xi-api-key');
    if (path === '/v1/voices') {
      if (key !== STAND_IN_KEYS.elevenlabs) return json(res, 401, unauthorized);
      return json(res, 200, { voices: ELEVENLABS_VOICES });
    }
    if (path !== '/v1/convai/conversation/token') return false;
    const agent = query.get('agent_id') ?? '';
    if (key && key !== STAND_IN_KEYS.elevenlabs) return json(res, 401, unauthorized);
    if (agent === STAND_IN_AGENTS.broken) return json(res, 500, { detail: { status: 'internal_error', message: 'Something went wrong.' } });
    if (agent === STAND_IN_AGENTS.public) return json(res, 200, { token: 'standin-public-conversation-token' });
    if (agent === STAND_IN_AGENTS.private) {
      if (!key) return json(res, 401, { detail: { status: 'missing_api_key', message: 'This agent requires authentication.' } });
      return json(res, 200, { token: 'standin-private-conversation-token' });
    }
    return json(res, 404, { detail: { status: 'agent_not_found', message: 'Agent not found' } });
  };
}
