// The provider table as the server reaches it (also part of account info, spec 2 §7).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { apiRequest } from '../../../lib/api-client';

export function getBrainCatalogue(): Promise<BrainCatalogue> {
  return apiRequest<BrainCatalogue>('/api/brain/catalogue');
}

export function getBrainCatalogueQueryOptions() {
  return queryOptions({ queryKey: ['brain', 'catalogue'], queryFn: getBrainCatalogue, staleTime: Infinity });
}

export function useBrainCatalogue() {
  return useQuery(getBrainCatalogueQueryOptions());
}
