// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { drawRegion, MAX_PIXELS, MAX_SCALE } from './draw-region';

describe('the region a software-WebGL face is drawn in', () => {
  it('covers the figure with room for its motion, inside the stage', () => {
    const r = drawRegion({ x: 300, y: 100, w: 400, h: 600 }, 1024, 640);
    expect(r.x).toBeLessThan(300 - 400 * 0.05);
    expect(r.y).toBeLessThan(100 - 600 * 0.05);
    expect(r.x + r.w).toBeGreaterThan(700 + 400 * 0.05);
    // The bust runs off the stage's bottom: the region stops there.
    expect(r.y + r.h).toBe(640);
    expect(r.w).toBeLessThan(1024 * 0.6);
  });

  it('draws the whole stage when there is no figure box', () => {
    expect(drawRegion(null, 640, 480)).toMatchObject({ x: 0, y: 0, w: 640, h: 480 });
    expect(drawRegion({ x: NaN, y: 0, w: 1, h: 1 }, 640, 480)).toMatchObject({ x: 0, y: 0, w: 640, h: 480 });
    expect(drawRegion({ x: 2000, y: 0, w: 100, h: 100 }, 640, 480)).toMatchObject({ x: 0, y: 0, w: 640, h: 480 });
  });

  it.each([
    [320, 240],
    [640, 480],
    [1024, 640],
    [1920, 1080],
    [3840, 2160],
  ])('holds at most MAX_PIXELS in its drawing buffer, at most MAX_SCALE of the CSS pixels, on a %i × %i stage', (w, h) => {
    const r = drawRegion({ x: w * 0.3, y: h * 0.1, w: w * 0.4, h: h }, w, h);
    expect(r.scale).toBeLessThanOrEqual(MAX_SCALE);
    expect(Math.floor(r.w * r.scale) * Math.floor(r.h * r.scale)).toBeLessThanOrEqual(MAX_PIXELS);
    // A small stage keeps the light profile's scale: no need to go coarser.
    if (w * h <= 320 * 240) expect(r.scale).toBe(MAX_SCALE);
  });

  it('is in whole CSS pixels', () => {
    const r = drawRegion({ x: 10.4, y: 20.6, w: 100.3, h: 200.2 }, 500, 500);
    for (const v of [r.x, r.y, r.w, r.h]) expect(Number.isInteger(v)).toBe(true);
  });
});
