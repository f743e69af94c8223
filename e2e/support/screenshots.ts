// Screenshots of the screens a journey passes through, kept in test-results/screens/ to be
// looked at (not compared).
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const DIR = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: `${DIR}${name}.png`, fullPage: opts.fullPage ?? true, animations: 'disabled' });
}
