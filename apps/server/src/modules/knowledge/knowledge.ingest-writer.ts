// Writes an item's chunks in short batches, each its own transaction, instead of one transaction
// for the whole item: on PGlite every statement runs on the server's thread behind the one
// connection, so a long one stalls every request. Batches are sized by time on PGlite (about
// WRITE_STATEMENT_MS each, measured as they go; the worker runs as background work, so a
// waiting request takes the connection first) and followed by a short pause; on PostgreSQL they
// are a few hundred rows. Search ignores the chunks of an item that is not ready yet, so nothing
// half-written is visible. An interrupted item resumes after its last written chunk when its text
// is unchanged, or starts over. On PGlite the chunks are written uncounted and added to the lexeme
// counts once all are written, a range of many chunks a statement (migration 0690); on PostgreSQL,
// whose statements hold a whole item, the insert trigger counts them as they are written. See
// docs/decisions/406 and 222.
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import { pauseAfter, TimeBatches } from '../../db/background-batches';
import type { DB } from '../../db/schema';
import { checkpointIfDue } from '../../db/wal';
import { countChunks, holdCounts, uncountedFrom } from './knowledge-counts.repository';
import { embeddingModel, storeEmbeddings } from './knowledge.embeddings';
import * as repo from './knowledge.repository';

/** Rows per batch on PostgreSQL, and the most on PGlite. */
export const WRITE_MAX_ROWS = 250;
/**
 * The CPU time one statement of chunks (or of their counts) should take on PGlite: twice
 * BACKGROUND_STATEMENT_MS. A chunk costs less among others (each statement pays its transaction
 * and triggers once), so at 15 ms every statement held one chunk. A request waits for at most one
 * statement (decision 222's gate), so it waits up to 30 ms instead of 15. Sized by the process's
 * CPU time, not the wall clock: PGlite runs on this thread, so a statement's CPU is its cost, and
 * on a loaded machine wall time shrank statements to a chunk or two, each paying its transaction,
 * and count statements to a few chunks, upserting the words they share once per few chunks.
 * See the amendments of 2026-11-29 (2) and (4) in docs/decisions/406.
 */
export const WRITE_STATEMENT_MS = 30;
/**
 * While requests come, the pause after a statement of chunks is half its time (background work
 * elsewhere pauses as long as it took): ingestion has two thirds of PGlite's thread instead of
 * half. A request still waits for at most the one statement in progress (the gate serves
 * requests first); what it changes is how often a request finds one in progress. Decision 406,
 * amendment of 2026-11-29 (2).
 */
const WRITE_PAUSE_SHARE = 0.5;
/** Chunks deleted per statement on PostgreSQL, and the most on PGlite. */
const CLEAR_MAX_ROWS = 100;
const LEASE_EVERY_MS = 30_000;
/**
 * PGlite never checkpoints by itself (db/wal.ts): its WAL grew to 1.1 GB for 26 MB of text. Besides
 * the process's WAL keeper, the worker checks every WAL_CHECK_EVERY batches, since it writes WAL
 * faster than the keeper looks.
 */
const WAL_CHECK_EVERY = 8;

/** On PGlite, one estimate of a chunk's cost for the whole process, carried from item to item
 *  (each item started again at one chunk a statement); another of the cost of counting one. */
const writeSizes = new WeakMap<AppContext, { write: TimeBatches; count: TimeBatches }>();

function writeSizesOf(ctx: AppContext): { write: TimeBatches; count: TimeBatches } {
  let sizes = writeSizes.get(ctx);
  if (!sizes)
    writeSizes.set(
      ctx,
      (sizes = {
        write: new TimeBatches(WRITE_MAX_ROWS, WRITE_STATEMENT_MS, 1),
        count: new TimeBatches(WRITE_MAX_ROWS, WRITE_STATEMENT_MS, 1),
      }),
    );
  return sizes;
}

/** On PostgreSQL: WRITE_MAX_ROWS a statement. */
const fixedSizes = () => new TimeBatches(WRITE_MAX_ROWS, undefined, WRITE_MAX_ROWS);

interface Target {
  id: string;
  owner_id: string;
  collection_id: string;
  /** Indexed with each chunk (an item's name is text of its chunks, decision 407). */
  name?: string;
}

/** Deletes an item's chunks in short statements (an item that fails keeps none). */
export async function clearChunks(ctx: AppContext, itemId: string): Promise<void> {
  const pglite = ctx.database.kind === 'pglite';
  const sizes = new TimeBatches(CLEAR_MAX_ROWS, undefined, pglite ? 4 : CLEAR_MAX_ROWS);
  for (;;) {
    const t = performance.now();
    const n = await repo.deleteSomeChunksOfItem(ctx.db, itemId, sizes.size);
    if (n === 0) return;
    if (!pglite) continue;
    const took = performance.now() - t;
    sizes.took(n, took);
    await pauseAfter(took, ctx.database.gate);
  }
}

/** Where to start: after the chunks an interrupted run already wrote, when they are this text's. */
async function resumeAt(ctx: AppContext, item: Target, chunks: string[]): Promise<number> {
  const last = await repo.lastChunkOfItem(ctx.db, item.id);
  if (!last) return 0;
  if (chunks[last.ord] === last.content) return last.ord + 1;
  await clearChunks(ctx, item.id);
  return 0;
}

/** The process's CPU time so far, in milliseconds. */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

export async function writeChunks(
  ctx: AppContext,
  item: Target,
  chunks: string[],
  config: string,
  vectors: number[][] | null,
  extendLease: () => Promise<unknown>,
): Promise<void> {
  const pglite = ctx.database.kind === 'pglite';
  await checkpointIfDue(ctx.database);
  const sizes = pglite ? writeSizesOf(ctx) : { write: fixedSizes(), count: fixedSizes() };
  let leaseAt = performance.now();
  let batches = 0;
  /** Runs one statement's transaction; then the lease, on PGlite the WAL, the next size (from the
   *  statement's CPU time) and a pause (from its wall time). Answers the transaction's answer. */
  const step = async <T>(batch: TimeBatches, rows: number, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> => {
    // Timed from when the transaction has the connection (after BEGIN): the wait for requests
    // served first is not the statement's cost, and counted in, it kept statements at one chunk.
    let started = performance.now();
    let startedCpu = cpuMs();
    const answer = await ctx.db.transaction().execute((trx) => {
      started = performance.now();
      startedCpu = cpuMs();
      return work(trx);
    });
    const took = performance.now() - started;
    const tookCpu = cpuMs() - startedCpu;
    if (performance.now() - leaseAt > LEASE_EVERY_MS) {
      leaseAt = performance.now();
      await extendLease();
    }
    if (!pglite) return answer;
    if (++batches % WAL_CHECK_EVERY === 0) await checkpointIfDue(ctx.database);
    batch.took(rows, tookCpu);
    await pauseAfter(took, ctx.database.gate, WRITE_PAUSE_SHARE);
    return answer;
  };
  let at = await resumeAt(ctx, item, chunks);
  // On PGlite the chunks written from here on stay out of the lexeme counts until all are written.
  // On PostgreSQL the triggers count them (each statement writes a whole item of up to
  // WRITE_MAX_ROWS chunks), unless an interrupted run left some uncounted: those are counted after.
  const uncounted = pglite ? ((await holdCounts(ctx.db, item.id, at)) ?? at) : await uncountedFrom(ctx.db, item.id);
  while (at < chunks.length) {
    const batch = chunks.slice(at, at + sizes.write.size);
    const from = at;
    await step(sizes.write, batch.length, async (trx) => {
      const ids = await repo.insertChunks(
        trx,
        batch.map((content, i) => ({
          owner_id: item.owner_id,
          collection_id: item.collection_id,
          item_id: item.id,
          ord: from + i,
          content,
        })),
        config,
        item.name ?? '',
      );
      if (vectors) {
        const model = embeddingModel(ctx)!;
        await storeEmbeddings(
          trx,
          model,
          ids.map((chunkId, i) => ({ chunkId, ownerId: item.owner_id, collectionId: item.collection_id, vector: vectors[from + i]! })),
        );
      }
    });
    at += batch.length;
  }
  // Counted a range at a time; the last range takes every chunk left and marks none uncounted.
  for (let from = uncounted; typeof from === 'number';) {
    const to = from + sizes.count.size >= chunks.length ? null : from + sizes.count.size;
    const start = from;
    const counted = await step(sizes.count, (to ?? chunks.length) - start, (trx) => countChunks(trx, item, start, to));
    if (!counted) return;
    from = to;
  }
}
