// Screenshots of the screens a journey passes through, kept in test-results/screens/ to be
// looked at (not compared).
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const DIR = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

/**
 * The whole page by default. Not with Playwright's `fullPage`: in Chromium it passes the window
 * through 1 × 1 px for a moment (seen as a `resize` event), and the portal's narrow-screen media
 * query then swaps the avatar editor for the mobile layout and back, which closed an open dialog
 * (the CI failure of access-link.spec). The viewport is grown to the page's height instead, width
 * unchanged, and put back.
 */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  const path = `${DIR}${name}.png`;
  const viewport = page.viewportSize();
  if (!(opts.fullPage ?? true) || !viewport) {
    await page.screenshot({ path, fullPage: opts.fullPage ?? true, animations: 'disabled' });
    return;
  }
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  try {
    await page.screenshot({ path, animations: 'disabled' });
  } finally {
    if (height > viewport.height) await page.setViewportSize(viewport);
  }
}
