import { useMutation } from '@tanstack/react-query';
import { CRAWL_PAGE_LIMIT, type CrawledPage, type CrawlScheduleRequest } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

/** A crawl fetches up to 20 pages: give it longer than the usual 10 s. */
const CRAWL_TIMEOUT_MS = 60_000;

export interface CrawlInput {
  url: string;
  include?: string[];
  exclude?: string[];
}

export function crawl(input: CrawlInput): Promise<CrawledPage[]> {
  return kbRequest('/kb/v1/crawl', { method: 'POST', body: { ...input, limit: CRAWL_PAGE_LIMIT }, timeoutMs: CRAWL_TIMEOUT_MS });
}

export function useCrawl() {
  return useMutation({ mutationFn: crawl });
}

/** The collection re-crawls its site daily or weekly from this page with these patterns (or not). */
export function saveCrawlSchedule(collectionId: string, body: CrawlScheduleRequest): Promise<unknown> {
  return kbRequest(`/kb/v1/collections/${encodeURIComponent(collectionId)}/crawl-schedule`, { method: 'PUT', body });
}
