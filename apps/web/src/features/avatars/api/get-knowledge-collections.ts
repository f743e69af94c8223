// Knowledge collections an avatar can link (Brain tab, KNOWLEDGE BASE): the knowledge API takes
// the short-lived JWT from /api/token/jwt as its bearer (spec 2 §7).
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface KnowledgeCollection {
  id: string;
  name: string;
}

export async function getKnowledgeCollections(): Promise<KnowledgeCollection[]> {
  const { jwtToken } = await apiRequest<{ jwtToken: string }>('/api/token/jwt');
  return apiRequest<KnowledgeCollection[]>('/kb/v1/collections', { auth: { bearer: jwtToken } });
}

export function useKnowledgeCollections(enabled: boolean) {
  return useQuery({ queryKey: ['avatars', 'knowledge-collections'], queryFn: getKnowledgeCollections, enabled });
}
