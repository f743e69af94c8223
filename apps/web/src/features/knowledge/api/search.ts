import { useMutation } from '@tanstack/react-query';
import type { SearchHit, SearchRequest } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function searchKnowledge(input: SearchRequest): Promise<SearchHit[]> {
  return kbRequest('/kb/v1/search', { method: 'POST', body: input });
}

export function useSearchKnowledge() {
  return useMutation({ mutationFn: searchKnowledge });
}
