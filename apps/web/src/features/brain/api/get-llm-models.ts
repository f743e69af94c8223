// POST /api/llm/models: the models of an offered base URL (OpenAI shape or Gemini's own).
import { useQuery } from '@tanstack/react-query';
import type { LlmModelsRequest, LlmModelsResponse } from '@parla/shared/schemas/brain';
import { apiRequest } from '../../../lib/api-client';

export function getLlmModels(body: LlmModelsRequest, signal?: AbortSignal): Promise<LlmModelsResponse> {
  return apiRequest<LlmModelsResponse>('/api/llm/models', { body, signal });
}

export function useLlmModels(body: LlmModelsRequest | null) {
  return useQuery({
    queryKey: ['brain', 'llm-models', body],
    queryFn: ({ signal }) => getLlmModels(body!, signal),
    enabled: Boolean(body),
    retry: false,
    staleTime: 5 * 60_000,
  });
}
