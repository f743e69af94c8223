// POST /api/llm/assistants: the OpenAI assistants of the key, newest first.
import { useQuery } from '@tanstack/react-query';
import type { AssistantsRequest, AssistantsResponse } from '@parla/shared/schemas/brain';
import { apiRequest } from '../../../lib/api-client';

export function getAssistants(body: AssistantsRequest, signal?: AbortSignal): Promise<AssistantsResponse> {
  return apiRequest<AssistantsResponse>('/api/llm/assistants', { body, signal });
}

export function useAssistants(body: AssistantsRequest | null) {
  return useQuery({
    queryKey: ['brain', 'assistants', body],
    queryFn: ({ signal }) => getAssistants(body!, signal),
    enabled: Boolean(body),
    retry: false,
    staleTime: 60_000,
  });
}
