// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { FEATHER, fit, STALE_PX, toPicture } from './mouth-cache';

/** Four anchors (a mouth's box corners) moved by a similarity: turned `angle`, scaled `s`, shifted. */
const moved = (from: number[], angle: number, s: number, dx: number, dy: number) =>
  from.flatMap((_, i) =>
    i % 2
      ? []
      : [
          s * (Math.cos(angle) * from[i]! - Math.sin(angle) * from[i + 1]!) + dx,
          s * (Math.sin(angle) * from[i]! + Math.cos(angle) * from[i + 1]!) + dy,
        ],
  );

describe("the fit of a kept mouth picture to the mouth's place now", () => {
  const anchors = [100, 150, 140, 150, 100, 172, 140, 172];
  /** A point through the fit, as a 2D canvas's setTransform(a, b, c, d, e, f) maps it. */
  const through = (f: ReturnType<typeof fit>, x: number, y: number) => [f.a * x + f.c * y + f.e, f.b * x + f.d * y + f.f];

  it('is the identity for the same place', () => {
    const f = fit(anchors, anchors);
    expect([f.a, f.b, f.c, f.d, f.e, f.f].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 0, 0, 1, 0, 0]);
    expect(f.error).toBeCloseTo(0, 9);
  });

  it('finds the shift, turn and scale of a head that swayed, with nothing left over', () => {
    const to = moved(anchors, 0.03, 1.01, 2.4, -1.3);
    const f = fit(anchors, to);
    expect(Math.atan2(f.b, f.a)).toBeCloseTo(0.03, 9);
    expect(Math.hypot(f.a, f.b)).toBeCloseTo(1.01, 9);
    expect(f.error).toBeLessThan(1e-9);
    expect(through(f, anchors[0]!, anchors[1]!)[0]).toBeCloseTo(to[0]!, 9);
    expect(through(f, anchors[0]!, anchors[1]!)[1]).toBeCloseTo(to[1]!, 9);
  });

  it('follows a box squeezed on one axis (a head turning a little), which a turn and a scale cannot', () => {
    const to = anchors.map((v, i) => (i % 2 ? v : 120 + (v - 120) * 0.97));
    expect(fit(anchors, to).error).toBeLessThan(1e-9);
  });

  it("reports the depth's parallax of a head turned since, so the picture is drawn again", () => {
    // The box's front corners and its back corners, and the same box seen from a little aside:
    // the front shifts more than the back.
    const box = [...anchors, ...anchors.map((v, i) => (i % 2 ? v - 2 : 120 + (v - 120) * 0.9))];
    const aside = (dx: number) => box.map((v, i) => (i % 2 ? v : v + (i < 8 ? dx : dx / 4)));
    expect(fit(box, aside(4)).error).toBeGreaterThan(STALE_PX);
    expect(fit(box, aside(1)).error).toBeLessThan(STALE_PX);
  });
});

describe('a mouth picture read back from WebGL', () => {
  it('turns the rows top down, takes the alpha out of the colours and fades its border', () => {
    const [w, h] = [8, 6];
    const rgba = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        // WebGL's first row is the bottom one: it is red; the others grey. One pixel is half covered.
        rgba.set(y === 0 ? [200, 0, 0, 255] : [90, 90, 90, 255], i);
      }
    rgba.set([50, 50, 50, 128], (3 * w + 4) * 4);
    const out = toPicture(rgba, w, h);
    const at = (x: number, y: number) => [...out.slice((y * w + x) * 4, (y * w + x) * 4 + 4)];
    // The bottom row is red, in the picture's last row.
    expect(at(4, h - 1).slice(0, 3)).toEqual([200, 0, 0]);
    expect(at(4, 0).slice(0, 3)).toEqual([90, 90, 90]);
    // The half-covered pixel (WebGL's row 3 is the picture's row 2): straight alpha.
    expect(at(4, 2)).toEqual([100, 100, 100, 128]);
    // The border fades in over FEATHER pixels; the inside is opaque.
    expect(at(0, 2)[3]).toBe(Math.round(255 / (FEATHER + 1)));
    expect(at(1, 2)[3]).toBe(Math.round((255 * 2) / (FEATHER + 1)));
    expect(at(FEATHER, FEATHER)[3]).toBe(255);
    expect(at(w - 1, 3)[3]).toBe(Math.round(255 / (FEATHER + 1)));
  });
});
