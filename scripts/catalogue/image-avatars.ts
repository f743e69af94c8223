// Image avatars: each portrait becomes one atlas (WebP with alpha) and a manifest of sprites.
// Layers (back hair, body, head) are trimmed to their pixels; feature frames (eyes, brows, one
// mouth per viseme, a smile) are crops of the head drawn in that state, with feathered edges so
// they blend into the head they are drawn over.
import type { Page } from '@playwright/test';
import type { ImageAvatarModel, ImageAvatarSprite } from '@parla/shared/schemas/catalogue';
import { VISEMES } from '@parla/shared/visemes';
import { MOUTH_SHAPES, SMILE_SHAPE } from './mouth-shapes';
import type { Person } from './people';
import { featureRects, H, headGeometry, W, type Rect } from './portrait/geometry';
import { portraitSvg, type Layer, type PortraitState } from './portrait/portrait-svg';
import { rasterize } from './browser';

interface Job {
  key: string;
  svg: string;
  /** Crop (feature frames) or trim to content (layers). */
  crop: Rect | null;
}

interface Packed {
  atlas: Buffer;
  sprites: Record<string, ImageAvatarSprite>;
}

const REST: PortraitState = { eyes: 'open', brows: 'neutral', mouth: MOUTH_SHAPES.sil };

/** Rasterises every job in the page, trims/crops, feathers the crops and shelf-packs them. */
async function pack(page: Page, jobs: Job[]): Promise<Packed> {
  const result = await page.evaluate(
    async ({ jobs, W, H }) => {
      const FEATHER = 6;
      const pieces: { key: string; canvas: HTMLCanvasElement; x: number; y: number }[] = [];
      for (const job of jobs) {
        const url = URL.createObjectURL(new Blob([job.svg], { type: 'image/svg+xml' }));
        const img = new Image();
        img.src = url;
        await img.decode();
        const full = document.createElement('canvas');
        full.width = W;
        full.height = H;
        const fctx = full.getContext('2d', { willReadFrequently: true })!;
        fctx.drawImage(img, 0, 0);
        URL.revokeObjectURL(url);
        let r = job.crop;
        if (!r) {
          const data = fctx.getImageData(0, 0, W, H).data;
          let x0 = W,
            y0 = H,
            x1 = 0,
            y1 = 0;
          for (let y = 0; y < H; y++)
            for (let x = 0; x < W; x++)
              if (data[(y * W + x) * 4 + 3]! > 2) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
              }
          r = { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
        }
        const c = document.createElement('canvas');
        c.width = r.w;
        c.height = r.h;
        const ctx = c.getContext('2d', { willReadFrequently: true })!;
        ctx.drawImage(full, r.x, r.y, r.w, r.h, 0, 0, r.w, r.h);
        if (job.crop) {
          const im = ctx.getImageData(0, 0, r.w, r.h);
          for (let y = 0; y < r.h; y++)
            for (let x = 0; x < r.w; x++) {
              const d = Math.min(x, y, r.w - 1 - x, r.h - 1 - y);
              if (d < FEATHER) im.data[(y * r.w + x) * 4 + 3] = Math.round(im.data[(y * r.w + x) * 4 + 3]! * (d / FEATHER));
            }
          ctx.putImageData(im, 0, 0);
        }
        pieces.push({ key: job.key, canvas: c, x: r.x, y: r.y });
      }
      // Shelf packing, tallest first, 2 px gutters.
      const order = [...pieces].sort((a, b) => b.canvas.height - a.canvas.height);
      const maxW = 2048;
      let cx = 0,
        cy = 0,
        shelf = 0;
      const placed: Record<string, { sx: number; sy: number; w: number; h: number; x: number; y: number }> = {};
      for (const p of order) {
        if (cx + p.canvas.width > maxW) {
          cx = 0;
          cy += shelf + 2;
          shelf = 0;
        }
        placed[p.key] = { sx: cx, sy: cy, w: p.canvas.width, h: p.canvas.height, x: p.x, y: p.y };
        cx += p.canvas.width + 2;
        shelf = Math.max(shelf, p.canvas.height);
      }
      const atlas = document.createElement('canvas');
      atlas.width = maxW;
      atlas.height = cy + shelf;
      const actx = atlas.getContext('2d')!;
      for (const p of pieces) actx.drawImage(p.canvas, placed[p.key]!.sx, placed[p.key]!.sy);
      return { dataUrl: atlas.toDataURL('image/webp', 0.86), placed };
    },
    { jobs, W, H },
  );
  return { atlas: Buffer.from(result.dataUrl.split(',')[1]!, 'base64'), sprites: result.placed };
}

export interface ImageAvatarFiles {
  atlas: Buffer;
  /** The manifest, with the atlas file name filled in by the caller. */
  manifest: (atlasName: string) => ImageAvatarModel;
  preview: Buffer;
}

export async function buildImageAvatar(page: Page, p: Person): Promise<ImageAvatarFiles> {
  const g = headGeometry(p);
  const rects = featureRects(g);
  const head = (state: Partial<PortraitState>) => portraitSvg(p, { ...REST, ...state }, ['head']);
  const jobs: Job[] = [];
  const layers: Layer[] = ['back', 'body', 'head'];
  for (const layer of layers) {
    const svg = portraitSvg(p, REST, [layer]);
    if (layer === 'back' && !svg.includes('hairBack')) continue;
    jobs.push({ key: `layer:${layer}`, svg, crop: null });
  }
  for (const eyes of ['open', 'half', 'closed'] as const) jobs.push({ key: `eyes:${eyes}`, svg: head({ eyes }), crop: rects.eyes });
  for (const brows of ['neutral', 'raised'] as const) jobs.push({ key: `brows:${brows}`, svg: head({ brows }), crop: rects.brows });
  for (const v of VISEMES) jobs.push({ key: `mouth:${v}`, svg: head({ mouth: MOUTH_SHAPES[v] }), crop: rects.mouth });
  jobs.push({ key: 'smile', svg: head({ mouth: SMILE_SHAPE }), crop: rects.mouth });

  const { atlas, sprites } = await pack(page, jobs);
  const s = (key: string) => sprites[key]!;
  const mouth = Object.fromEntries(VISEMES.map((v) => [v, s(`mouth:${v}`)])) as ImageAvatarModel['mouth'];
  const preview = await rasterize(page, portraitSvg(p, REST, layers, p.backdrop), 320, 320, 'image/webp', 0.88, {
    x: 84,
    y: 120,
    w: 600,
    h: 600,
  });
  return {
    atlas,
    preview,
    manifest: (atlasName) => ({
      format: 'parla-image-avatar',
      version: 1,
      width: W,
      height: H,
      atlas: atlasName,
      background: p.backdrop,
      layers: { back: sprites['layer:back'] ?? null, body: s('layer:body'), head: s('layer:head') },
      headPivot: g.pivot,
      eyes: { open: s('eyes:open'), half: s('eyes:half'), closed: s('eyes:closed') },
      brows: { neutral: s('brows:neutral'), raised: s('brows:raised') },
      mouth,
      smile: s('smile'),
    }),
  };
}
