// The whole avatar (configuration, masked secrets, media) for the editor, read when a card is
// selected: the list itself carries only what the cards show.
import { queryOptions } from '@tanstack/react-query';
import type { GetAvatarResponse } from '@parla/shared/schemas/avatar';
import { apiRequest } from '../../../lib/api-client';

export function getAvatar(id: string): Promise<GetAvatarResponse> {
  return apiRequest<GetAvatarResponse>(`/api/avatar/${encodeURIComponent(id)}`);
}

export function getAvatarQueryOptions(id: string) {
  return queryOptions({ queryKey: ['avatars', 'one', id], queryFn: () => getAvatar(id), staleTime: 0 });
}
