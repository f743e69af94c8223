// @vitest-environment node
import { FXAAShader } from 'three/addons/shaders/FXAAShader.js';
import { describe, expect, it } from 'vitest';
import { outlineFXAA } from './smooth-edges';

describe('FXAA in software WebGL', () => {
  it("sees the figure's outline over the transparent canvas as an edge (three's shader still has the line it changes)", () => {
    const shader = outlineFXAA();
    expect(shader).not.toBe(FXAAShader.fragmentShader);
    expect(shader).toContain('( 1.0 - c.a ) * 0.5');
  });
});
