// The avatar list, one page of cards at a time (decision 211). An account with fewer avatars than
// a page gets its whole list in the first answer; `search` asks the server, which looks at every
// avatar id of the account.
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { AVATAR_LIST_PAGE } from '@parla/shared/limits';
import type { AvatarCardItem, AvatarListResponse } from '@parla/shared/schemas/avatar';
import { apiRequest } from '../../../lib/api-client';

export function getAvatars(offset: number, search = ''): Promise<AvatarListResponse> {
  const query = new URLSearchParams({ limit: String(AVATAR_LIST_PAGE), offset: String(offset) });
  if (search) query.set('search', search);
  return apiRequest<AvatarListResponse>(`/api/avatar/list?${query.toString()}`);
}

export function getAvatarsQueryOptions(search = '') {
  return infiniteQueryOptions({
    queryKey: ['avatars', 'list', search],
    queryFn: ({ pageParam }) => getAvatars(Number(pageParam), search),
    initialPageParam: 0,
    getNextPageParam: (last: AvatarListResponse) => last.nextOffset ?? undefined,
  });
}

export function useAvatars(search = '', enabled = true) {
  return useInfiniteQuery({ ...getAvatarsQueryOptions(search), enabled });
}

export type AvatarPages = InfiniteData<AvatarListResponse>;

/** The cards of every page fetched so far, each once (a page may repeat a card that moved). */
export function cardsOf(data: AvatarPages | undefined): AvatarCardItem[] {
  const seen = new Set<string>();
  const out: AvatarCardItem[] = [];
  for (const page of data?.pages ?? []) {
    for (const a of page.agents) {
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      out.push(a);
    }
  }
  return out;
}
