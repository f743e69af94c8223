// Paged lists (issue 21, decisions 211 and 221): `limit` (default LIST_PAGE, at most
// LIST_PAGE_MAX), `offset`, and where the screen searches, `search` over every row of the list.
// An answer carries one page and `nextOffset`, null on the last page.
import { z } from 'zod';
import { LIST_PAGE, LIST_PAGE_MAX } from '../limits';

export const pageLimit = z.coerce
  .number({ error: 'limit must be a number' })
  .int('limit must be a whole number')
  .min(1, 'limit must be at least 1')
  .max(LIST_PAGE_MAX, `limit must be at most ${LIST_PAGE_MAX}`);
export const pageOffset = z.coerce
  .number({ error: 'offset must be a number' })
  .int('offset must be a whole number')
  .min(0, 'offset must be at least 0')
  .max(1_000_000, 'offset is too large');
export const pageSearch = z.string().trim().max(100, 'Search must be at most 100 characters');

export const pageQuery = z.object({ limit: pageLimit.optional(), offset: pageOffset.optional(), search: pageSearch.optional() });
export type PageQuery = z.infer<typeof pageQuery>;

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: { limit?: number | undefined; offset?: number | undefined }): Page {
  return { limit: query.limit ?? LIST_PAGE, offset: query.offset ?? 0 };
}

/** Rows read with `limit + 1`: the page and the next page's offset (null when none). */
export function paged<T>(rows: T[], page: Page): { rows: T[]; nextOffset: number | null } {
  return rows.length > page.limit ? { rows: rows.slice(0, page.limit), nextOffset: page.offset + page.limit } : { rows, nextOffset: null };
}

/** A LIKE pattern matching `search` anywhere, its wildcards taken literally. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
