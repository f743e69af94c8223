// Re-crawl schedules (issue 15 item 6, docs/decisions/408). A collection may re-crawl its site
// daily or weekly from a start page with include/exclude path patterns. The knowledge worker
// takes a due collection by moving its crawl_next_at forward in one UPDATE (so one node crawls
// it), crawls as POST /kb/v1/crawl does, re-syncs the pages it already holds (same id, same
// links) and adds the new ones as URL items; pages already queued are left alone.
import { CRAWL_PAGE_LIMIT, type CrawlSchedule, type CrawlScheduleRequest } from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/tokens';
import { crawlSite } from './knowledge.crawl';
import { assertPublicTarget, FetchProblem } from './knowledge.fetch';
import * as repo from './knowledge.repository';
import { normalizeKnowledgeUrl } from './knowledge.urls';

const DAY_MS = 24 * 60 * 60 * 1000;
export const RECRAWL_EVERY_MS: Record<Exclude<CrawlSchedule, 'off'>, number> = { daily: DAY_MS, weekly: 7 * DAY_MS };

const list = (json: string | null): string[] => {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

export function crawlSettingsOf(row: {
  crawl_schedule?: string | null;
  crawl_url?: string | null;
  crawl_include?: string | null;
  crawl_exclude?: string | null;
  crawl_next_at?: Date | null;
}) {
  const schedule = (['daily', 'weekly'].includes(row.crawl_schedule ?? '') ? row.crawl_schedule : 'off') as CrawlSchedule;
  return {
    schedule,
    url: row.crawl_url ?? null,
    include: list(row.crawl_include ?? null),
    exclude: list(row.crawl_exclude ?? null),
    next_at: schedule !== 'off' && row.crawl_next_at ? row.crawl_next_at.toISOString() : null,
  };
}

/** PUT /kb/v1/collections/{id}/crawl-schedule. */
export async function setCrawlSchedule(ctx: AppContext, ownerId: string, id: string, input: CrawlScheduleRequest) {
  if (!(await repo.findCollection(ctx.db, ownerId, id))) throw AppError.notFound('Collection');
  if (input.url) {
    try {
      await assertPublicTarget(ctx, input.url);
    } catch (err) {
      if (err instanceof FetchProblem) throw AppError.invalid(err.message, 'ADDRESS_REFUSED');
      throw err;
    }
  }
  const now = ctx.now();
  const patch = {
    crawl_schedule: input.schedule,
    crawl_url: input.url ?? null,
    crawl_include: JSON.stringify(input.include ?? []),
    crawl_exclude: JSON.stringify(input.exclude ?? []),
    crawl_next_at: input.schedule === 'off' ? null : new Date(now.getTime() + RECRAWL_EVERY_MS[input.schedule]),
    updated_at: now,
  };
  await repo.setCrawlSettings(ctx.db, ownerId, id, patch);
  return crawlSettingsOf(patch);
}

/** Crawls one due collection, if any; answers whether there was one. */
export async function recrawlNext(ctx: AppContext): Promise<boolean> {
  const now = ctx.now();
  const due = await repo.claimDueCrawl(
    ctx.db,
    now,
    (schedule) => new Date(now.getTime() + (RECRAWL_EVERY_MS[schedule as 'daily'] ?? 7 * DAY_MS)),
  );
  if (!due) return false;
  const settings = crawlSettingsOf(due);
  if (!settings.url) return true;
  try {
    const pages = await crawlSite(ctx, settings.url, CRAWL_PAGE_LIMIT, settings);
    let added = 0;
    let resynced = 0;
    for (const page of pages) {
      const urlKey = normalizeKnowledgeUrl(page.url);
      const twin = await repo.findByUrlKey(ctx.db, due.owner_id, due.id, urlKey);
      if (twin) {
        const res = await repo.requeueForResync(ctx.db, due.owner_id, twin.id, ctx.now());
        resynced += Number(res.numUpdatedRows);
        continue;
      }
      const at = ctx.now();
      await repo.insertItem(ctx.db, {
        id: newId(),
        owner_id: due.owner_id,
        collection_id: due.id,
        name: page.title.slice(0, 200),
        kind: 'url',
        url: page.url,
        url_key: urlKey,
        content: null,
        file_id: null,
        file_name: null,
        file_type: null,
        fail_reason: null,
        created_at: at,
        updated_at: at,
      });
      added++;
    }
    ctx.log.info({ collection: due.id, pages: pages.length, added, resynced }, 'knowledge re-crawl');
  } catch (err) {
    ctx.log.warn({ collection: due.id, err: (err as Error).message }, 'knowledge re-crawl failed');
  }
  return true;
}
