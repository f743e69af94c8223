// The rules of collections and items: ownership (a foreign id is not found), one kind per item,
// URLs checked before they are stored, uploads bound to one item, ingestion queued for the
// worker, and deletes that take chunks, files and avatar links with them.
import {
  createItemRequest,
  DUPLICATE_TEXT_MESSAGE,
  DUPLICATE_URL_MESSAGE,
  type BatchItemResult,
  type CollectionRequest,
  type CreateItemRequest,
  type KnowledgeCollection,
  type KnowledgeItem,
  type KnowledgeItemDetail,
  RESYNC_BUSY,
  RESYNC_URL_ONLY,
} from '@parla/shared/schemas/knowledge';
import { pageOf, type PageQuery } from '@parla/shared/schemas/paging';
import { issueMessages } from '@parla/shared/zod-messages';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/tokens';
import { scheduleKnowledgeReclaim } from './knowledge.space';
import { backfilling } from './knowledge.backfill';
import { embeddingModel, vectorSearchReady } from './knowledge.embeddings';
import { assertPublicTarget, FetchProblem } from './knowledge.fetch';
import { crawlSettingsOf } from './knowledge.recrawl';
import { KNOWLEDGE_INDEX_VERSION } from './knowledge.reindex';
import * as repo from './knowledge.repository';
import { normalizeKnowledgeUrl } from './knowledge.urls';
import { contentHash, notifyKnowledgeWorker } from './knowledge.worker';

export const FILE_URL_PREFIX = '/kb/v1/files/';
export const FILE_ALREADY_USED = 'This uploaded file already belongs to another knowledge item. Upload it again to add it twice.';
export const ONLY_FAILED_RETRY = 'Only an item whose processing failed can be retried.';

type ItemRow = Awaited<ReturnType<typeof repo.listItems>>[number];
type CollectionRow = Awaited<ReturnType<typeof repo.listCollections>>[number];

type CollectionFields = Pick<CollectionRow, 'id' | 'name' | 'language' | 'created_at'> & {
  detected_language?: string | null;
  index_version?: number;
  item_count?: number | string | null;
  vectors_model?: string | null;
} & Parameters<typeof crawlSettingsOf>[0];

function toCollection(row: CollectionFields, hybrid: boolean, model: string | null = null): KnowledgeCollection {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    detected_language: row.detected_language ?? null,
    search_mode: hybrid ? 'hybrid' : 'fulltext',
    vectors_backfilling: hybrid && backfilling(model, row),
    reindexing: (row.index_version ?? KNOWLEDGE_INDEX_VERSION) < KNOWLEDGE_INDEX_VERSION,
    crawl: crawlSettingsOf(row),
    created_at: row.created_at.toISOString(),
    item_count: Number(row.item_count ?? 0),
  };
}

export function toItem(row: ItemRow): KnowledgeItem {
  const knowledge_type: KnowledgeItem['knowledge_type'] =
    row.kind === 'text'
      ? { text: { content: row.content ?? '' } } // the first 300 characters: lists show a preview
      : row.kind === 'url'
        ? { url: { url: row.url ?? '' } }
        : {
            file: {
              file_name: row.file_name ?? '',
              file_type: (row.file_type ?? 'text/plain') as never,
              url: row.file_id ? `${FILE_URL_PREFIX}${row.file_id}` : '',
            },
          };
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    collection_id: row.collection_id,
    knowledge_type,
    status: row.status,
    fail_reason: row.fail_reason,
    chunk_count: row.chunk_count,
  };
}

// --- Collections ------------------------------------------------------------------------------

export async function listCollections(ctx: AppContext, ownerId: string): Promise<KnowledgeCollection[]> {
  const hybrid = await vectorSearchReady(ctx);
  return (await repo.listCollections(ctx.db, ownerId)).map((r) => toCollection(r, hybrid, embeddingModel(ctx)));
}

export async function createCollection(ctx: AppContext, ownerId: string, input: CollectionRequest): Promise<KnowledgeCollection> {
  const now = ctx.now();
  const row = { id: newId(), owner_id: ownerId, name: input.name, language: input.language || null, created_at: now, updated_at: now };
  // An empty collection has every vector it needs: no back-fill.
  const hybrid = await vectorSearchReady(ctx);
  const vectors_model = hybrid ? embeddingModel(ctx) : null;
  await repo.insertCollection(ctx.db, { ...row, index_version: KNOWLEDGE_INDEX_VERSION, vectors_model });
  return toCollection({ ...row, item_count: 0, vectors_model }, hybrid, vectors_model);
}

export async function updateCollection(
  ctx: AppContext,
  ownerId: string,
  id: string,
  input: CollectionRequest,
): Promise<KnowledgeCollection> {
  const existing = await repo.findCollection(ctx.db, ownerId, id);
  if (!existing) throw AppError.notFound('Collection');
  const language = input.language === undefined ? existing.language : input.language || null;
  // Another language: the chunks are re-indexed in the background (decision 407); search
  // looks in both configurations until then.
  const changed = language !== existing.language;
  const patch = { name: input.name, language, updated_at: ctx.now(), ...(changed ? { index_version: 0 } : {}) };
  await repo.updateCollection(ctx.db, ownerId, id, patch);
  if (changed) notifyKnowledgeWorker(ctx);
  const itemCount = await repo.countItems(ctx.db, ownerId, id);
  return toCollection({ ...existing, ...patch, item_count: itemCount }, await vectorSearchReady(ctx), embeddingModel(ctx));
}

export async function deleteCollection(ctx: AppContext, ownerId: string, id: string): Promise<void> {
  const existing = await repo.findCollection(ctx.db, ownerId, id);
  if (!existing) throw AppError.notFound('Collection');
  await ctx.db.transaction().execute(async (trx) => {
    const files = await repo.fileIdsOfCollection(trx, ownerId, id);
    await repo.deleteCollection(trx, ownerId, id);
    for (const f of files) await ctx.files.forget(trx, ownerId, f.file_id!);
  });
  scheduleKnowledgeReclaim(ctx);
}

// --- Items ------------------------------------------------------------------------------------

/** A page of a collection's items, newest first (decision 221): the answer stays a list; a
 *  full page (`limit` rows) means the next offset may hold more. */
export async function listItems(ctx: AppContext, ownerId: string, collectionId: string, query: PageQuery = {}): Promise<KnowledgeItem[]> {
  if (!(await repo.findCollection(ctx.db, ownerId, collectionId))) throw AppError.notFound('Collection');
  return (await repo.listItems(ctx.db, ownerId, collectionId, pageOf(query), query.search || undefined)).map(toItem);
}

function fileIdOf(url: string): string | null {
  if (!url.startsWith(FILE_URL_PREFIX)) return null;
  const id = url.slice(FILE_URL_PREFIX.length);
  return /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}

async function insertItem(ctx: AppContext, ownerId: string, collectionId: string, input: CreateItemRequest): Promise<KnowledgeItem> {
  const now = ctx.now();
  const base = { id: newId(), owner_id: ownerId, collection_id: collectionId, name: input.name, created_at: now, updated_at: now };
  const t = input.knowledge_type;
  if (t.text) {
    const hash = contentHash(t.text.content);
    const twin = await repo.findItemByContentHash(ctx.db, ownerId, collectionId, hash);
    if (twin) throw AppError.invalid(DUPLICATE_TEXT_MESSAGE(twin.name), 'DUPLICATE');
    await repo.insertItem(ctx.db, { ...base, kind: 'text', content: t.text.content, content_hash: hash });
  } else if (t.url) {
    try {
      await assertPublicTarget(ctx, t.url.url);
    } catch (err) {
      if (err instanceof FetchProblem) throw AppError.invalid(err.message, 'ADDRESS_REFUSED');
      throw err;
    }
    const urlKey = normalizeKnowledgeUrl(t.url.url);
    const twin = await repo.findByUrlKey(ctx.db, ownerId, collectionId, urlKey);
    if (twin) throw AppError.invalid(DUPLICATE_URL_MESSAGE(twin.name), 'DUPLICATE');
    await repo.insertItem(ctx.db, { ...base, kind: 'url', url: t.url.url, url_key: urlKey });
  } else if (t.file) {
    const fileId = fileIdOf(t.file.url);
    const file = fileId ? await ctx.files.find(ctx.db, ownerId, fileId) : undefined;
    if (!file || file.kind !== 'knowledge') throw AppError.notFound('File');
    if (await repo.fileInUse(ctx.db, file.id)) throw AppError.invalid(FILE_ALREADY_USED, 'FILE_IN_USE');
    // The stored type was checked at upload (magic bytes); the client's word is not needed.
    await repo.insertItem(ctx.db, { ...base, kind: 'file', file_id: file.id, file_name: t.file.file_name, file_type: file.content_type });
  }
  const row = await repo.findItem(ctx.db, ownerId, base.id);
  return toItem(row!);
}

export async function createItem(ctx: AppContext, ownerId: string, collectionId: string, input: CreateItemRequest): Promise<KnowledgeItem> {
  if (!(await repo.findCollection(ctx.db, ownerId, collectionId))) throw AppError.notFound('Collection');
  const item = await insertItem(ctx, ownerId, collectionId, input);
  notifyKnowledgeWorker(ctx);
  return item;
}

/** Create many: each item succeeds or fails on its own (spec 4 §7). */
export async function createItems(ctx: AppContext, ownerId: string, collectionId: string, items: unknown[]): Promise<BatchItemResult[]> {
  if (!(await repo.findCollection(ctx.db, ownerId, collectionId))) throw AppError.notFound('Collection');
  const results: BatchItemResult[] = [];
  for (const [index, raw] of items.entries()) {
    const parsed = createItemRequest.safeParse(raw);
    if (!parsed.success) {
      results.push({ index, status: 'error', error: issueMessages(parsed.error.issues).join(' ') });
      continue;
    }
    try {
      results.push({ index, status: 'success', item: await insertItem(ctx, ownerId, collectionId, parsed.data) });
    } catch (err) {
      if (!(err instanceof AppError) || err.httpStatus >= 500) throw err;
      results.push({ index, status: 'error', error: err.errors.join(' ') });
    }
  }
  notifyKnowledgeWorker(ctx);
  return results;
}

export async function deleteItem(ctx: AppContext, ownerId: string, id: string): Promise<void> {
  const item = await repo.findItem(ctx.db, ownerId, id);
  if (!item) throw AppError.notFound('Knowledge item');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteItem(trx, ownerId, id);
    if (item.file_id) await ctx.files.forget(trx, ownerId, item.file_id);
  });
  scheduleKnowledgeReclaim(ctx);
}

export async function retryItem(ctx: AppContext, ownerId: string, id: string): Promise<KnowledgeItem> {
  const item = await repo.findItem(ctx.db, ownerId, id);
  if (!item) throw AppError.notFound('Knowledge item');
  const res = await repo.requeueItem(ctx.db, ownerId, id, ctx.now());
  if (Number(res.numUpdatedRows) === 0) throw AppError.invalid(ONLY_FAILED_RETRY, 'NOT_FAILED');
  notifyKnowledgeWorker(ctx);
  return toItem((await repo.findItem(ctx.db, ownerId, id))!);
}

/** An item with its chunks: what was extracted and how it was cut. */
export async function itemDetail(ctx: AppContext, ownerId: string, id: string): Promise<KnowledgeItemDetail> {
  const item = await repo.findItem(ctx.db, ownerId, id);
  if (!item) throw AppError.notFound('Knowledge item');
  const chunks = await repo.listItemChunks(ctx.db, ownerId, id);
  return { item: toItem(item), chunks: chunks.map((c) => ({ ord: c.ord, text: c.content })) };
}

/**
 * Re-sync of a web page: fetched again and re-indexed by the worker under the same id (avatar
 * links, sources and the item's place stay). Its old chunks stay until the new text is cut
 * (the writer starts over when the text changed); search leaves the item out meanwhile.
 */
export async function resyncItem(ctx: AppContext, ownerId: string, id: string): Promise<KnowledgeItem> {
  const item = await repo.findItem(ctx.db, ownerId, id);
  if (!item) throw AppError.notFound('Knowledge item');
  if (item.kind !== 'url') throw AppError.invalid(RESYNC_URL_ONLY, 'NOT_A_PAGE');
  const res = await repo.requeueForResync(ctx.db, ownerId, id, ctx.now());
  if (Number(res.numUpdatedRows) === 0) throw AppError.invalid(RESYNC_BUSY, 'BUSY');
  notifyKnowledgeWorker(ctx);
  return toItem((await repo.findItem(ctx.db, ownerId, id))!);
}
