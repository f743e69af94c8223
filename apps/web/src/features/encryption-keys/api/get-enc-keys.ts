import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EncKeySummary } from '@parla/shared/schemas/encryption-keys';
import { apiRequest } from '../../../lib/api-client';

export function getEncKeys(): Promise<{ encKeys: EncKeySummary[] }> {
  return apiRequest('/api/enc/list');
}

export function getEncKeysQueryOptions() {
  return queryOptions({ queryKey: ['encryption-keys'], queryFn: getEncKeys, select: (d) => d.encKeys });
}

export function useEncKeys() {
  return useQuery(getEncKeysQueryOptions());
}
