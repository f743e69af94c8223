// Lists answered a page at a time (decisions 211 and 221): an infinite query whose data is every
// row fetched so far, each once (a row that moved between two pages is kept at its first place).
// An account with fewer rows than a page gets its whole list in the first answer.
import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';
import { LIST_PAGE } from '@parla/shared/limits';

export interface PageAnswer {
  nextOffset: number | null;
}

export function uniqueRows<R>(rows: R[], id: (row: R) => string): R[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = id(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `read(offset)` asks one page (LIST_PAGE rows); `rows` picks the page's rows. */
export function pagedQueryOptions<A extends PageAnswer, R>(
  queryKey: QueryKey,
  read: (offset: number) => Promise<A>,
  rows: (answer: A) => R[],
  id: (row: R) => string,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => read(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last: A) => last.nextOffset ?? undefined,
    select: (data) => uniqueRows(data.pages.flatMap(rows), id),
  });
}

/** For an answer that is a bare list (the knowledge API): a full page means another may follow. */
export function listPageParam<R>(last: R[], all: R[][]): number | undefined {
  return last.length === LIST_PAGE ? all.length * LIST_PAGE : undefined;
}

export function pageQueryString(offset: number, search = ''): string {
  const q = new URLSearchParams({ limit: String(LIST_PAGE), offset: String(offset) });
  if (search.trim()) q.set('search', search.trim());
  return q.toString();
}
