import { useMutation } from '@tanstack/react-query';
import { CRAWL_PAGE_LIMIT, type CrawledPage } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

/** A crawl fetches up to 20 pages: give it longer than the usual 10 s. */
const CRAWL_TIMEOUT_MS = 60_000;

export function crawl(url: string): Promise<CrawledPage[]> {
  return kbRequest('/kb/v1/crawl', { method: 'POST', body: { url, limit: CRAWL_PAGE_LIMIT }, timeoutMs: CRAWL_TIMEOUT_MS });
}

export function useCrawl() {
  return useMutation({ mutationFn: crawl });
}
