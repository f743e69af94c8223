import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListOauthAppsResponse } from '@parla/shared/schemas/oauth';
import { apiRequest } from '../../../lib/api-client';

export function getOauthApps(): Promise<ListOauthAppsResponse> {
  return apiRequest<ListOauthAppsResponse>('/api/list_oauthapp');
}

export function getOauthAppsQueryOptions() {
  return queryOptions({ queryKey: ['oauth-configs'], queryFn: getOauthApps });
}

export function useOauthApps() {
  return useQuery(getOauthAppsQueryOptions());
}
