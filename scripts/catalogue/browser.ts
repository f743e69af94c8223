// Headless Chromium (Debian's, via Playwright) as the generator's drawing surface: it rasterises
// SVG, packs atlases and renders three.js scenes for previews. Generation time only.
import { chromium, type Browser, type Page } from '@playwright/test';

export interface Drawing {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export async function openDrawing(): Promise<Drawing> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--enable-unsafe-swiftshader',
    ],
  });
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  return { browser, page, close: () => browser.close() };
}

export type ImageType = 'image/png' | 'image/webp' | 'image/jpeg';

/** Rasterises an SVG, optionally scaled to (outW, outH), as the given image type. */
export async function rasterize(
  page: Page,
  svg: string,
  outW: number,
  outH: number,
  type: ImageType = 'image/png',
  quality = 0.9,
  crop?: { x: number; y: number; w: number; h: number },
): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    async ({ svg, outW, outH, type, quality, crop }) => {
      const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
      const img = new Image();
      img.src = url;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = outW;
      c.height = outH;
      const ctx = c.getContext('2d')!;
      ctx.imageSmoothingQuality = 'high';
      if (crop) ctx.drawImage(img, crop.x, crop.y, crop.w, crop.h, 0, 0, outW, outH);
      else ctx.drawImage(img, 0, 0, outW, outH);
      URL.revokeObjectURL(url);
      return c.toDataURL(type, quality);
    },
    { svg, outW, outH, type, quality, crop },
  );
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}
