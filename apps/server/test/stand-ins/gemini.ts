// Gemini's native model list: GET /v1beta/models?key=... → { models: [{ name: 'models/...', ... }] }.
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

export const GEMINI_MODELS = [
  { name: 'models/gemini-2.0-flash', displayName: 'Gemini 2.0 Flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
  { name: 'models/gemini-1.5-pro', displayName: 'Gemini 1.5 Pro', supportedGenerationMethods: ['generateContent', 'countTokens'] },
  { name: 'models/text-embedding-004', displayName: 'Text Embedding 004', supportedGenerationMethods: ['embedContent'] },
];

export function geminiHandler(): Handler {
  return ({ req, res, path, query }) => {
    if (req.method !== 'GET' || path !== '/v1beta/models') return false;
    if (query.get('key') !== STAND_IN_KEYS.gemini) {
      return json(res, 400, {
        error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
      });
    }
    return json(res, 200, {
      models: GEMINI_MODELS.map((m) => ({ ...m, version: '001', inputTokenLimit: 1_048_576, outputTokenLimit: 8192 })),
    });
  };
}
