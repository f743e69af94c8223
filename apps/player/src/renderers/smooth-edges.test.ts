// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { outlineFXAA } from './smooth-edges';

describe('FXAA in software WebGL', () => {
  it("sees the figure's outline over the transparent canvas as an edge", () => {
    expect(outlineFXAA()).toContain('( 1.0 - c.a ) * 0.5');
  });

  it('reads nine texels in straight-line code (the pixel, its corners, four along the edge): no search loop', () => {
    const shader = outlineFXAA();
    expect(shader.match(/texture\(/g)).toHaveLength(9);
    expect(shader).not.toMatch(/\bfor\b|\bwhile\b/);
  });
});
