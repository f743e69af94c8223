// Retrieval test of the Brain tab's KNOWLEDGE BASE: the passages the avatar would be given for a
// question, with its top-k and threshold (the knowledge API with the JWT of /api/token/jwt).
import { useMutation } from '@tanstack/react-query';
import type { SearchHit, SearchRequest } from '@parla/shared/schemas/knowledge';
import { apiRequest } from '../../../lib/api-client';

export async function searchKnowledge(input: SearchRequest): Promise<SearchHit[]> {
  const { jwtToken } = await apiRequest<{ jwtToken: string }>('/api/token/jwt');
  return apiRequest<SearchHit[]>('/kb/v1/search', { method: 'POST', body: input, auth: { bearer: jwtToken } });
}

export function useSearchKnowledge() {
  return useMutation({ mutationFn: searchKnowledge });
}
