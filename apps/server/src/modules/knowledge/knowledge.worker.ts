// Ingestion in the background: claim items into a small pool of slots, fairly between owners
// (knowledge-queue.repository.ts, decision 411; an item in processing is taken over when its
// process died or its lease ran out), read each one's text (fetch, extract), split it into chunks, store chunks with
// their full-text vectors (and embeddings when configured), then mark it ready, or failed with
// the reason. Started by server.ts; tests start it themselves and call drain().
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context';
import { inBackground } from '../../db/pglite-gate';
import type { KnowledgeItemsTable } from '../../db/tables/knowledge';
import { DEAD_AFTER_MS } from '../../runtime/delivery/delivery';
import { backfillNext } from './knowledge.backfill';
import { chunkText } from './knowledge.chunking';
import { embed, vectorSearchReady } from './knowledge.embeddings';
import { decodeText, ExtractError, kindOf, type DocumentKind } from './knowledge.extract';
import { EXTRACT_LIMITS, ExtractCrash, extractInChild, type ExtractLimits } from './knowledge.extract-runner';
import { fetchDocument, FetchProblem } from './knowledge.fetch';
import { clearChunks, writeChunks } from './knowledge.ingest-writer';
import { effectiveLanguage, textSearchConfig } from './knowledge.language';
import { recrawlNext } from './knowledge.recrawl';
import { detectCollectionLanguage, reindexNext } from './knowledge.reindex';
import * as repo from './knowledge.repository';
import { claimNextItem, type IngestLane } from './knowledge-queue.repository';
import { markIncomplete } from './knowledge-vectors.repository';

type Item = Selectable<KnowledgeItemsTable>;

/** A claimed item belongs to its worker this long; after that another may take it over. */
export const INGEST_LEASE_MS = 5 * 60 * 1000;
/** An item whose processing was cut off this many times fails instead of looping forever. */
export const INGEST_MAX_ATTEMPTS = 3;
/** An item whose reading crashed this many times (retries included) is not read again. */
export const INGEST_MAX_CRASHES = 3;
/** A document of more chunks than this (about 4 million words) is refused. */
export const INGEST_MAX_CHUNKS = 5000;
const UNUSED_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;
const CLEANUP_EVERY_MS = 60 * 60 * 1000;

export const NO_TEXT = 'No readable text was found in this document.';
export const INTERRUPTED =
  'Processing was interrupted several times (the server restarted or the document is too heavy). Retry to try again.';
export const CRASHED_TOO_OFTEN = `This document stopped its reader ${INGEST_MAX_CRASHES} times and is not processed again. Upload a simpler or smaller file.`;
export const duplicateContent = (name: string) => `Skipped: the same content is already in this collection (“${name}”).`;
const UNEXPECTED = 'The document could not be processed because of an internal error. Retry to try again.';

export interface KnowledgeWorker {
  /** New work was queued: look now instead of at the next poll. */
  kick(): void;
  /** Processes until nothing is left to claim (tests). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

const workers = new WeakMap<AppContext, KnowledgeWorker>();

/** Called after items are queued; without a running worker (API tests) it does nothing. */
export function notifyKnowledgeWorker(ctx: AppContext): void {
  workers.get(ctx)?.kick();
}

const limitsOf = new WeakMap<AppContext, ExtractLimits>();

/** Plain text is decoded here; every document format is read in a child process (decision 405). */
async function extract(ctx: AppContext, kind: DocumentKind, source: { path: string } | { data: Buffer; baseUrl: string }): Promise<string> {
  if (kind === 'text' || kind === 'markdown') {
    const text = decodeText('data' in source ? source.data : await readFile(source.path));
    if (text === null) throw new ExtractError('The file is not UTF-8 text.');
    return text;
  }
  const limits = limitsOf.get(ctx) ?? EXTRACT_LIMITS;
  const job = 'data' in source ? { kind, data: new Uint8Array(source.data), baseUrl: source.baseUrl } : { kind, path: source.path };
  return (await extractInChild(job, limits)).text;
}

async function readItemText(ctx: AppContext, item: Item): Promise<string> {
  if (item.kind === 'text') return item.content ?? '';
  if (item.kind === 'url') {
    const doc = await fetchDocument(ctx, item.url!);
    return extract(ctx, doc.kind, { data: doc.body, baseUrl: doc.finalUrl });
  }
  if (!item.file_id) throw new ExtractError('The uploaded file of this item no longer exists.');
  const file = await ctx.files.find(ctx.db, item.owner_id, item.file_id);
  // No bytes in the database (an older release's file never moved): reported at start too.
  if (!file || file.chunk_count === null) throw new ExtractError('The uploaded file of this item no longer exists.');
  const kind = kindOf(file.content_type, file.original_name ?? '');
  if (!kind) throw new ExtractError('The file type cannot be read.');
  // The child reads a path: the bytes are copied out of the database for it (decision 015).
  const path = await ctx.files.toTempFile(ctx.db, file);
  try {
    return await extract(ctx, kind, { path });
  } finally {
    await rm(path, { force: true });
  }
}

export async function processItem(ctx: AppContext, item: Item): Promise<void> {
  // A failed item keeps no chunks (an interrupted run may have written some).
  const finishFailed = async (reason: string) => {
    await clearChunks(ctx, item.id);
    await repo.finishItem(ctx.db, item.id, {
      status: 'failed',
      fail_reason: reason,
      locked_until: null,
      updated_at: ctx.now(),
      processed_at: ctx.now(),
    });
  };
  if (item.crashes >= INGEST_MAX_CRASHES) {
    await finishFailed(CRASHED_TOO_OFTEN);
    return;
  }
  if (item.attempts > INGEST_MAX_ATTEMPTS) {
    await finishFailed(INTERRUPTED);
    return;
  }
  try {
    const text = await readItemText(ctx, item);
    const chunks = chunkText(text);
    if (chunks.length === 0) throw new ExtractError(NO_TEXT);
    if (chunks.length > INGEST_MAX_CHUNKS) throw new ExtractError(`The document is too long (more than ${INGEST_MAX_CHUNKS} chunks).`);
    // The same content twice in a collection (a page added by URL and crawled again, a file
    // uploaded twice) would reach the model twice: the later item is skipped (decision 407).
    const hash = contentHash(text);
    const twin = await repo.findByContentHash(ctx.db, item.collection_id, hash, item.id);
    if (twin) throw new ExtractError(duplicateContent(twin.name));
    // No hash yet but chunks: a re-synced page (or an item of before migration 0405) — its old
    // chunks go, never resumed (the page may have changed anywhere).
    if (!item.content_hash) await clearChunks(ctx, item.id);
    await repo.setContentHash(ctx.db, item.id, hash);
    await detectCollectionLanguage(ctx, item.collection_id, text);
    const collection = await repo.collectionLanguage(ctx.db, item.collection_id);
    const config = await textSearchConfig(ctx.db, collection ? effectiveLanguage(collection) : null);

    let vectors: number[][] | null = null;
    const wantVectors = await vectorSearchReady(ctx);
    if (wantVectors) {
      try {
        vectors = await embed(ctx, chunks);
      } catch (err) {
        // Full-text search still finds this item; the vectors are an addition (decision 400).
        ctx.log.warn({ itemId: item.id, err: (err as Error).message }, 'embedding failed; item indexed for full-text only');
      }
    }

    // Chunks in short batches, invisible to search until the item is ready (decision 406).
    await writeChunks(ctx, item, chunks, config, vectors, () =>
      repo.extendLease(ctx.db, item.id, new Date(ctx.now().getTime() + INGEST_LEASE_MS)),
    );
    // Embedding failed: the back-fill gives these chunks vectors later (decision 409).
    if (wantVectors && !vectors) await markIncomplete(ctx.db, item.collection_id);
    await repo.finishItem(ctx.db, item.id, {
      status: 'ready',
      fail_reason: null,
      chunk_count: chunks.length,
      locked_until: null,
      updated_at: ctx.now(),
      processed_at: ctx.now(),
    });
  } catch (err) {
    if (err instanceof ExtractCrash) {
      ctx.log.warn({ itemId: item.id, reason: err.message }, 'knowledge extraction stopped');
      await clearChunks(ctx, item.id);
      await repo.failItemCrashed(ctx.db, item.id, err.message, ctx.now());
      return;
    }
    if (err instanceof ExtractError || err instanceof FetchProblem) {
      await finishFailed(err.message);
      return;
    }
    // The item may have been deleted meanwhile (its chunks then fail their foreign key).
    if (!(await repo.itemExists(ctx.db, item.id))) return;
    ctx.log.error({ err, itemId: item.id }, 'knowledge ingestion failed');
    await finishFailed(UNEXPECTED);
  }
}

/** sha256 of a text with its spacing normalised. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex');
}

/** Removes knowledge uploads that were never turned into an item. */
async function removeUnusedUploads(ctx: AppContext): Promise<void> {
  const rows = await repo.unusedUploads(ctx.db, new Date(ctx.now().getTime() - UNUSED_UPLOAD_AGE_MS));
  for (const r of rows) {
    await ctx.files.forget(ctx.db, r.owner_id, r.id);
  }
}

export interface KnowledgeWorkerOptions {
  pollMs?: number;
  extractLimits?: ExtractLimits;
  /** Documents (files and pages) read at once by this process: each is a fetch and an extraction
   *  child of up to EXTRACT_LIMITS.rssMb. One owner holds at most `documentSlots - 1` of them
   *  (at least one), so another owner's document always finds a slot (decision 411). */
  documentSlots?: number;
  /** This server process (runtime_processes.id): claimed items name it, and items of processes
   *  that stopped heartbeating are taken over at once. Unset (tests): leases only. */
  processId?: string;
}

/** Two documents at once on the 2-core reference machine: one extraction child per core. */
export const INGEST_DOCUMENT_SLOTS = 2;

export function startKnowledgeWorker(ctx: AppContext, opts: KnowledgeWorkerOptions = {}): KnowledgeWorker {
  if (opts.extractLimits) limitsOf.set(ctx, opts.extractLimits);
  const documentSlots = Math.max(1, opts.documentSlots ?? INGEST_DOCUMENT_SLOTS);
  // Text items need no fetch and no child: their own lane of one, so a one-line text never waits
  // behind documents; one at a time, as their cost is the database's (decision 406).
  const lanes: { lane: IngestLane; slots: number; perOwner: number; busy: number }[] = [
    { lane: 'text', slots: 1, perOwner: 1, busy: 0 },
    { lane: 'documents', slots: documentSlots, perOwner: Math.max(1, documentSlots - 1), busy: 0 },
  ];
  // PGlite's data directory is open in one process only: an item another process holds is one
  // that a killed or restarted process left (decision 630's liveness otherwise).
  const deadAfterMs = ctx.database.kind === 'pglite' ? 0 : DEAD_AFTER_MS;
  const jobs = new Set<Promise<void>>();
  /** Items being read now: a shutdown hands them back to the queue (decision 014). */
  const inFlight = new Set<string>();
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let lastCleanup = 0;

  /** Claims items into the free slots; each runs on its own and kicks the worker when done. */
  const fill = async () => {
    for (const l of lanes) {
      while (!stopped && l.busy < l.slots) {
        const now = ctx.now();
        const item = await claimNextItem(ctx.db, {
          lane: l.lane,
          processId: opts.processId ?? null,
          perOwner: l.perOwner,
          now,
          leaseUntil: new Date(now.getTime() + INGEST_LEASE_MS),
          deadAfterMs,
        });
        if (!item) break;
        l.busy++;
        inFlight.add(item.id);
        const job: Promise<void> = processItem(ctx, item)
          .catch((err) => ctx.log.error({ err, itemId: item.id }, 'knowledge ingestion failed'))
          .finally(() => {
            l.busy--;
            inFlight.delete(item.id);
            jobs.delete(job);
            kick();
          });
        jobs.add(job);
      }
    }
  };

  const pump = async () => {
    do {
      again = false;
      await fill();
      // Collections waiting for a re-index, re-crawls and back-fills only while no item is in
      // flight: items come first (decisions 407, 408, 409); a finished item kicks again.
      if (stopped || jobs.size > 0) continue;
      while (!stopped && (await reindexNext(ctx, () => stopped))) again = true;
      while (!stopped && (await recrawlNext(ctx))) again = true;
      if (!stopped && (await backfillNext(ctx))) again = true;
    } while (again && !stopped);
    if (jobs.size === 0 && Date.now() - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = Date.now();
      await removeUnusedUploads(ctx);
    }
  };

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    // Background on PGlite's one connection: requests go first (decision 222). The items started
    // inside inherit it.
    running = inBackground(pump)
      .catch((err) => ctx.log.error({ err }, 'knowledge worker failed'))
      .finally(() => {
        running = null;
      });
  };

  const settle = async () => {
    while (running || jobs.size > 0) {
      while (running) await running;
      if (jobs.size > 0) await Promise.allSettled([...jobs]);
    }
  };
  const timer = setInterval(kick, opts.pollMs ?? 5000);
  timer.unref();
  const worker: KnowledgeWorker = {
    kick,
    drain: async () => {
      await settle();
      kick();
      await settle();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      // Shutdown (decision 014): the items go back to the queue now, not when their lease ends;
      // their writes from here on find them no longer processing and change nothing.
      for (const id of inFlight) await repo.releaseItem(ctx.db, id, ctx.now());
      await settle();
      workers.delete(ctx);
    },
  };
  workers.set(ctx, worker);
  kick(); // work left queued by an earlier run resumes now
  return worker;
}
