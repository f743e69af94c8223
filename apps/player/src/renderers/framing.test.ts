// @vitest-environment node
import { Box3, BufferGeometry, Float32BufferAttribute, Mesh, PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { FACE_SHARE, figureShot, headShot, projectBox, restBox, TALL_ASPECT } from './framing';

// A standing person's head, about where the catalogue's full-body characters have it.
const HEAD = new Box3(new Vector3(-0.09, 1.47, -0.09), new Vector3(0.09, 1.67, 0.13));

function shoot(from: [number, number, number], to: [number, number, number], fov: number, w: number, h: number, share = FACE_SHARE) {
  const shot = headShot(HEAD, new Vector3(...from), new Vector3(...to), fov, share);
  const camera = new PerspectiveCamera(fov, w / h, 0.05, 200);
  camera.position.set(...shot.position);
  camera.lookAt(...shot.target);
  camera.updateMatrixWorld();
  return projectBox(HEAD, camera, w, h, new Vector3());
}

describe('framing a full-body avatar for a conversation', () => {
  it.each([
    ['a wide stage, the lounge staging', [0, 1.4, 3.6], [0, 1, 0], 38, 1024, 640],
    ['a 9:16 stage, the garden staging', [0, 1.35, 3.4], [0, 1, 0], 38, 420, 746],
    ['a narrow field of view from the side', [1.5, 1.2, 2.5], [0, 1, 0], 28, 800, 600],
  ] as const)('keeps the head at a fifth of the stage or more, inside it, in %s', (_name, from, to, fov, w, h) => {
    const box = shoot([...from], [...to], fov, w, h);
    expect(box.h / h).toBeGreaterThanOrEqual(0.2);
    expect(box.y).toBeGreaterThan(0);
    expect(box.y + box.h).toBeLessThan(h * 0.6);
    expect(box.x).toBeGreaterThan(0);
    expect(box.x + box.w).toBeLessThan(w);
  });

  it.each([
    ['the garden staging', [0, 1.35, 3.4], [0, 1, 0], 38],
    ['the lounge staging', [0, 1.4, 3.6], [0, 1, 0], 38],
  ] as const)('shows the figure from the head to the knees in a 9:16 stage, %s', (_name, from, to, fov) => {
    const [w, h] = [420, 746];
    expect(w / h).toBeLessThanOrEqual(TALL_ASPECT);
    const shot = figureShot(HEAD, 0.51, new Vector3(...from), new Vector3(...to), fov);
    const camera = new PerspectiveCamera(fov, w / h, 0.05, 200);
    camera.position.set(...shot.position);
    camera.lookAt(...shot.target);
    camera.updateMatrixWorld();
    const v = new Vector3();
    const head = projectBox(HEAD, camera, w, h, v);
    // The whole head is on the stage, near its top; the knees are on the stage, near its bottom.
    expect(head.y).toBeGreaterThan(0);
    expect(head.y).toBeLessThan(h * 0.1);
    const knees = projectBox(new Box3(new Vector3(-0.15, 0.51, 0), new Vector3(0.15, 0.51, 0)), camera, w, h, v);
    expect(knees.y).toBeLessThan(h);
    expect(knees.y).toBeGreaterThan(h * 0.85);
    // Still a face to watch: more than an eighth of the stage's height.
    expect(head.h / h).toBeGreaterThan(1 / 8);
  });

  it('comes closer for a larger share, and the head grows with it', () => {
    expect(FACE_SHARE).toBeGreaterThanOrEqual(0.2);
    const normal = shoot([0, 1.4, 3.6], [0, 1, 0], 38, 1000, 1000);
    const close = shoot([0, 1.4, 3.6], [0, 1, 0], 38, 1000, 1000, 0.4);
    expect(close.h).toBeGreaterThan(normal.h * 1.6);
  });

  it('measures a morphing face at rest, not by the reach of its morph targets', () => {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute([0, 0, 0, 0.1, 0.2, 0, 0, 0.2, 0.05], 3));
    geometry.morphAttributes.position = [new Float32BufferAttribute([0, -1, 0, 0, 0, 0, 0, 0, 0], 3)];
    geometry.morphTargetsRelative = true;
    const mesh = new Mesh(geometry);
    geometry.computeBoundingBox();
    expect(geometry.boundingBox!.min.y).toBeLessThan(-0.5);
    expect(restBox(mesh).min.y).toBe(0);
    expect(restBox(mesh).max.y).toBeCloseTo(0.2);
  });
});
