// OpenAI's API as a stand-in (also what every OpenAI-compatible LLM base URL speaks):
// GET /v1/models and GET /v1/assistants with a bearer key; errors in OpenAI's error shape.
import { json, type Handler } from './http';
import { STAND_IN_KEYS } from './keys';

export const OPENAI_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-nano', 'o4-mini'];
export const OPENAI_ASSISTANTS = [
  { id: 'asst_standin_support', name: 'Support desk', model: 'gpt-4o-mini' },
  { id: 'asst_standin_sales', name: 'Sales helper', model: 'gpt-4o' },
];

const invalidKey = {
  error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
};

export function openAiHandler(key: string = STAND_IN_KEYS.openai): Handler {
  return ({ req, res, path, header }) => {
    if (req.method !== 'GET') return false;
    if (path !== '/v1/models' && path !== '/v1/assistants') return false;
    if (header('authorization') !== `Bearer ${key}`) return json(res, 401, invalidKey);
    if (path === '/v1/models') {
      return json(res, 200, {
        object: 'list',
        data: OPENAI_MODELS.map((id, i) => ({ id, object: 'model', created: 1_700_000_000 + i, owned_by: 'system' })),
      });
    }
    if (header('openai-beta') !== 'assistants=v2')
      return json(res, 400, {
        error: {
          message: "You must provide the 'OpenAI-Beta' header to access the Assistants API.",
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    const data = OPENAI_ASSISTANTS.map((a, i) => ({
      ...a,
      object: 'assistant',
      created_at: 1_700_000_100 - i,
      description: null,
      instructions: 'You help.',
      tools: [],
      metadata: {},
    }));
    return json(res, 200, { object: 'list', data, first_id: data[0]!.id, last_id: data.at(-1)!.id, has_more: false });
  };
}
