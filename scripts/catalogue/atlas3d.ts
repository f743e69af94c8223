// The viseme atlases of the catalogue's 3D avatars (issue 36, item 5; decision 124): each GLB
// drawn in every mouth shape and blink by the player's renderVisemeAtlas, in the generator's
// Chromium (software WebGL), so a browser without WebGL still shows a face whose lips move.
// Written beside the GLBs as committed assets (a WebP atlas and its manifest per avatar).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from '@playwright/test';
import type { CatalogueIndex } from '@parla/shared/schemas/catalogue';
import type { Output } from './output';
import { STUDIO_LIGHT } from './render3d';

/** The picture's size: a 4:5 head-and-shoulders portrait, sharp on a 640 px tall stage. */
const WIDTH = 480;
const HEIGHT = 600;

async function loadPage(page: Page): Promise<void> {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'atlas-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'error',
  });
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
}

export async function atlases(page: Page, out: Output, index: CatalogueIndex, log: (m: string) => void): Promise<void> {
  out.clear('avatars/3d-atlas');
  await loadPage(page);
  for (const a of index.avatars) {
    if (a.type === 'image' || a.type === 'vba') continue;
    const glb = readFileSync(join(out.root, a.model)).toString('base64');
    const { manifest, atlas } = await page.evaluate(
      ([g, w, h, l]) =>
        (window as unknown as { renderAtlas(...x: unknown[]): Promise<{ manifest: object; atlas: string }> }).renderAtlas(g, w, h, l),
      [glb, WIDTH, HEIGHT, STUDIO_LIGHT] as const,
    );
    const webp = Buffer.from(atlas.split(',')[1]!, 'base64');
    const file = out.write('avatars/3d-atlas', `${a.id}-atlas`, 'webp', webp);
    a.atlas = out.write('avatars/3d-atlas', `${a.id}-atlas`, 'json', JSON.stringify({ ...manifest, atlas: file.split('/').pop() }));
    log(`  ${a.id}: atlas ${(webp.length / 1024).toFixed(0)} KB`);
  }
}
