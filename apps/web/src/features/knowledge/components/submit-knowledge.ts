// Submitting knowledge with the overlay (spec 4 §4): one item (text, file) or a batch (URL rows,
// crawled pages) sent in slices so the bar follows real progress, with retry of what failed.
import { useEffect } from 'react';
import type { CreateItemRequest } from '@parla/shared/schemas/knowledge';
import { errorLines } from '../../../lib/api-client';
import { createItem, createItems } from '../api/create-items';
import type { UploadProgress } from './use-upload-progress';

export const UPLOAD_ERROR = 'An error occurred while uploading the knowledge base.';
export const URLS_PARTIAL = 'Failed to process some URLs. Network timeout or inaccessible content detected.';
export const DUPLICATES_SKIPPED = 'Some pages are already in this collection and were not added again.';
const DUPLICATE_PREFIX = 'This page is already in the collection';
export const FILE_UPLOAD_ERROR = 'Failed to process given file.';
export const DOCUMENT_ERROR = 'Failed to process document.';
export const FILE_UPLOAD_TOAST = 'There was an error uploading the file. Please try submitting it again.';

const BATCH_SLICE = 5;

export interface SubmitContext {
  collectionId: string;
  progress: UploadProgress;
  /** Registers what the overlay's Retry button does (null: no retry). */
  setRetry: (retry: (() => void) | null) => void;
  refresh: (collectionId: string) => Promise<unknown>;
  /** A tab tells the dialog whether it holds typed work that is not saved. */
  setDirty?: (tab: string, dirty: boolean) => void;
}

export async function submitOne(ctx: SubmitContext, item: CreateItemRequest): Promise<void> {
  ctx.progress.start();
  try {
    await createItem(ctx.collectionId, item);
    await ctx.refresh(ctx.collectionId);
    ctx.setRetry(null);
    ctx.progress.succeed(true);
  } catch (err) {
    ctx.setRetry(() => () => void submitOne(ctx, item));
    ctx.progress.fail(`${UPLOAD_ERROR} ${errorLines(err).join(' ')}`);
  }
}

export async function submitBatch(ctx: SubmitContext, items: CreateItemRequest[]): Promise<void> {
  const total = items.length;
  ctx.progress.start({ measured: true });
  ctx.progress.batch(0, 0, total);
  let processed = 0;
  const failed: { item: CreateItemRequest; error: string }[] = [];
  for (let i = 0; i < items.length; i += BATCH_SLICE) {
    const slice = items.slice(i, i + BATCH_SLICE);
    try {
      const results = await createItems(ctx.collectionId, slice);
      for (const r of results) {
        if (r.status === 'success') processed += 1;
        else failed.push({ item: slice[r.index]!, error: r.error ?? '' });
      }
    } catch (err) {
      for (const item of slice) failed.push({ item, error: errorLines(err).join(' ') });
    }
    ctx.progress.batch(processed, failed.length, total);
  }
  await ctx.refresh(ctx.collectionId).catch(() => {});
  if (failed.length === 0) {
    ctx.setRetry(null);
    ctx.progress.succeed(false);
    return;
  }
  const details = failed.map((f) => `${f.item.name}: ${f.error}`).join(' · ');
  // Duplicates are refused for good: a retry would be refused again.
  const again = failed.filter((f) => !f.error.startsWith(DUPLICATE_PREFIX)).map((f) => f.item);
  ctx.setRetry(again.length ? () => () => void submitBatch(ctx, again) : null);
  if (processed > 0 && again.length === 0) {
    ctx.progress.partial(`${DUPLICATES_SKIPPED} ${details}`);
    return;
  }
  if (processed === 0) ctx.progress.fail(`${UPLOAD_ERROR} ${details}`);
  else ctx.progress.partial(`${URLS_PARTIAL} ${details}`);
}

/** A tab reports its unsaved work to the dialog (and clears it when it goes away). */
export function useReportDirty(ctx: SubmitContext, tab: string, dirty: boolean): void {
  const set = ctx.setDirty;
  useEffect(() => {
    set?.(tab, dirty);
  }, [set, tab, dirty]);
  useEffect(() => () => set?.(tab, false), [set, tab]);
}
