// The catalogue of appearances and environments (served by the catalogue module).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueAvatarsResponse, CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import { apiRequest } from '../../../lib/api-client';

export function getCatalogueAvatars(): Promise<CatalogueAvatarsResponse> {
  return apiRequest<CatalogueAvatarsResponse>('/api/catalogue/avatars');
}

export function getCatalogueEnvironments(): Promise<CatalogueEnvironmentsResponse> {
  return apiRequest<CatalogueEnvironmentsResponse>('/api/catalogue/environments');
}

export function useCatalogueAvatars() {
  return useQuery(queryOptions({ queryKey: ['avatars', 'catalogue', 'avatars'], queryFn: getCatalogueAvatars, staleTime: Infinity }));
}

export function useCatalogueEnvironments() {
  return useQuery(
    queryOptions({ queryKey: ['avatars', 'catalogue', 'environments'], queryFn: getCatalogueEnvironments, staleTime: Infinity }),
  );
}
