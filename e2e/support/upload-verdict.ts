// Submitting the Add Knowledge dialog and reading the upload overlay's verdict (spec 4 §4). After
// a batch (URL rows, crawled pages) the success message shows for only 500 ms before the dialog
// closes, and a polling assertion under load (its polls a second apart) can miss it: an observer
// in the page records every verdict the overlay shows, and the test reads that record.
import { expect, type Page } from '@playwright/test';
import { logRequests, type RequestLog } from './request-log';

const SUCCESS = 'Knowledge base uploaded successfully!';
const VERDICTS = [SUCCESS, 'Partial upload completed', 'Upload failed'];

declare global {
  interface Window {
    __uploadVerdicts?: string[];
    __uploadObserver?: MutationObserver;
  }
}

const logs = new WeakMap<Page, RequestLog>();

/** Call before the page's first upload, so the failure message can list slow requests. */
export function watchUploads(page: Page): void {
  if (!logs.has(page)) logs.set(page, logRequests(page));
}

/** Clicks Submit and expects the overlay to say the upload succeeded, then the dialog to close. */
export async function submitAndExpectUploaded(page: Page, timeout = 45_000): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Add Knowledge' });
  await page.evaluate((texts) => {
    const seen: string[] = [];
    window.__uploadVerdicts = seen;
    const look = () => {
      for (const el of document.querySelectorAll('[role="dialog"] [role="status"]'))
        for (const t of texts) if (el.textContent?.includes(t) && !seen.includes(t)) seen.push(t);
    };
    // One observer per page: the previous upload's is replaced.
    window.__uploadObserver?.disconnect();
    window.__uploadObserver = new MutationObserver(look);
    window.__uploadObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, VERDICTS);
  const since = Date.now();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  const verdicts = () => page.evaluate(() => window.__uploadVerdicts ?? []);
  try {
    await expect.poll(async () => (await verdicts()).length, { timeout, intervals: [100, 250, 500] }).toBeGreaterThan(0);
  } catch (err) {
    throw new Error(`The upload overlay gave no verdict. Slow requests: ${logs.get(page)?.slow(since) ?? 'not watched'}`, {
      cause: err,
    });
  }
  expect(await verdicts(), `requests: ${logs.get(page)?.slow(since) ?? 'not watched'}`).toEqual([SUCCESS]);
  await expect(dialog).toBeHidden({ timeout: 10_000 });
}
