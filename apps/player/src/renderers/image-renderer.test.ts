// The 2D mouth never shows two mouths at once: every frame draws exactly one mouth sprite, fully
// opaque, also right after a viseme change (a cross-fade showed a ghosted double mouth).
// jsdom has no canvas: a recording 2D context and an image that decodes stand in for the browser's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VISEMES } from '@parla/shared/visemes';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { createImageRenderer } from './image-renderer';

const sprite = (sy: number) => ({ sx: 0, sy, w: 10, h: 10, x: 100, y: 200 });
const model = {
  width: 768,
  height: 960,
  atlas: 'atlas.webp',
  headPivot: [384, 600],
  layers: { body: sprite(0), head: sprite(10) },
  eyes: { open: sprite(20), half: sprite(30), closed: sprite(40) },
  brows: { neutral: sprite(50), raised: sprite(60) },
  smile: sprite(70),
  mouth: Object.fromEntries(VISEMES.map((v, i) => [v, sprite(1000 + i * 10)])),
};

afterEach(() => vi.unstubAllGlobals());

describe('image renderer', () => {
  it('draws exactly one opaque mouth in every frame, also during a change of viseme', async () => {
    const draws: { sy: number; alpha: number }[] = [];
    const ctx = new Proxy(
      {
        globalAlpha: 1,
        drawImage(_img: unknown, _sx: number, sy: number) {
          draws.push({ sy, alpha: ctx.globalAlpha });
        },
      } as Record<string, unknown> & { globalAlpha: number },
      { get: (t, k) => (k in t ? t[k as string] : () => undefined), set: (t, k, v) => ((t[k as string] = v), true) },
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(ctx as never);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(model)));
    Object.defineProperty(HTMLImageElement.prototype, 'decode', { configurable: true, value: () => Promise.resolve() });
    const host = document.createElement('div');
    const r = await createImageRenderer(host, { appearance: { modelURL: 'http://x/m.json' } } as PublicAvatar);
    r.resize(400, 500);
    const mouths = () => draws.filter((d) => d.sy >= 1000);
    for (const [at, viseme] of [
      [0, 'aa'],
      [10, 'O'],
      [20, 'O'],
      [30, 'E'],
      [45, 'PP'],
      [90, 'PP'],
    ] as const) {
      draws.length = 0;
      r.frame(at, { viseme, speaking: true });
      expect(mouths(), `frame at ${at} ms`).toHaveLength(1);
      expect(mouths()[0]!.alpha).toBe(1);
      expect(mouths()[0]!.sy).toBe(1000 + VISEMES.indexOf(viseme) * 10);
    }
  });
});
