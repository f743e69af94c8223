// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  BufferAttribute,
  Group,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  SphereGeometry,
  Vector3,
  type Object3D,
} from 'three';
import { mouthFrames } from './mouth-frames';

/** A flat 0.2 m face of 40 × 40 cells, facing +z: `viseme_aa` moves the vertices near the mouth
 *  (0, -0.05) down and in, `blink` the ones near the eyes, `smile` a little around the mouth; a
 *  "hair" plane in the face's space above, an eye apart, under one head. */
function figure() {
  const geometry = new PlaneGeometry(0.2, 0.2, 40, 40);
  const pos = geometry.getAttribute('position') as BufferAttribute;
  const target = (moves: (x: number, y: number) => [number, number, number]) => {
    const d = new Float32Array(pos.count * 3);
    for (let v = 0; v < pos.count; v++) d.set(moves(pos.getX(v), pos.getY(v)), v * 3);
    return new BufferAttribute(d, 3);
  };
  const nearMouth = (x: number, y: number) => Math.hypot(x, y + 0.05) < 0.025;
  geometry.morphAttributes.position = [
    target((x, y) => (nearMouth(x, y) ? [0, -0.01, -0.002] : [0, 0, 0])),
    target((x, y) => (Math.hypot(Math.abs(x) - 0.04, y - 0.04) < 0.015 ? [0, -0.005, 0] : [0, 0, 0])),
    target((x, y) => (nearMouth(x, y) ? [0, 0.001, 0] : [0, 0, 0])),
  ];
  geometry.morphTargetsRelative = true;
  const face = new Mesh(geometry, new MeshBasicMaterial());
  face.name = 'Face';
  face.updateMorphTargets();
  face.morphTargetDictionary = { viseme_aa: 0, blink: 1, smile: 2 };
  face.morphTargetInfluences = [0, 0, 0];
  const hair = new Mesh(new PlaneGeometry(0.3, 0.1, 30, 10).translate(0, 0.12, 0.01), new MeshBasicMaterial());
  hair.name = 'Hair';
  const eye = new Mesh(new SphereGeometry(0.012), new MeshBasicMaterial());
  eye.name = 'RightEye';
  eye.position.set(-0.04, 0.04, 0.005);
  const head = new Group();
  head.position.set(0, 1.6, 0);
  for (const part of [face, hair]) {
    part.position.set(0, 0.02, 0.01);
    part.scale.setScalar(1.08);
  }
  head.add(face, hair, eye);
  const root = new Group();
  root.add(head);
  const camera = new PerspectiveCamera(28, 1, 0.05, 200);
  camera.position.set(0, 1.6, 0.9);
  camera.lookAt(0, 1.6, 0);
  camera.updateMatrixWorld();
  root.updateMatrixWorld(true);
  return { root, face, hair, eye, camera };
}

const byName = (root: Object3D, name: string) => root.getObjectByName(name) as Mesh;

describe('the frames that redraw only the mouth', () => {
  it("draws the face's triangles that reach into the mouth's rectangle only, on the same vertices and morph targets", () => {
    const { root, face, camera } = figure();
    const frames = mouthFrames(face, root)!;
    expect(frames).not.toBeNull();
    const mouth = byName(root, 'FaceMouth');
    expect(mouth.geometry.getAttribute('position')).toBe(face.geometry.getAttribute('position'));
    expect(mouth.morphTargetInfluences).toBe(face.morphTargetInfluences);
    // Chosen for the rectangle placed after a whole frame, when a mouth frame is drawn.
    frames.place(camera, 240, 240);
    expect(mouth.geometry.drawRange.count).toBe(0);
    frames.only(() => undefined);
    const m = mouth.geometry.index!;
    const count = mouth.geometry.drawRange.count;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(face.geometry.index!.count / 2);
    // Every triangle with a moving corner is in it.
    const kept = new Set<string>();
    const key = (a: number, b: number, c: number) => [a, b, c].join();
    for (let i = 0; i < count; i += 3) kept.add(key(m.getX(i), m.getX(i + 1), m.getX(i + 2)));
    const aa = face.geometry.morphAttributes.position![0]!;
    const f = face.geometry.index!;
    for (let i = 0; i < f.count; i += 3) {
      const tri = [f.getX(i), f.getX(i + 1), f.getX(i + 2)] as const;
      if (tri.some((v) => aa.getY(v) !== 0)) expect(kept.has(key(...tri))).toBe(true);
    }
    // The hair above the mouth has no triangle in the rectangle: nothing of it is drawn.
    expect(byName(root, 'HairMouth').geometry.drawRange.count).toBe(0);
    expect(mouth.visible).toBe(false);
  });

  it('places the rectangle over every pixel the visemes can move, well inside the picture', () => {
    const { root, face, camera } = figure();
    const frames = mouthFrames(face, root)!;
    const [W, H] = [240, 240];
    const r = frames.place(camera, W, H)!;
    expect(r.w * r.h).toBeLessThan((W * H) / 10);
    const pos = face.geometry.getAttribute('position') as BufferAttribute;
    const aa = face.geometry.morphAttributes.position![0]!;
    const p = new Vector3();
    for (let v = 0; v < pos.count; v++) {
      if (aa.getY(v) === 0) continue;
      for (const k of [0, 1]) {
        p.fromBufferAttribute(pos, v).addScaledVector(new Vector3().fromBufferAttribute(aa, v), k);
        p.applyMatrix4(face.matrixWorld).project(camera);
        const [x, y] = [((p.x + 1) / 2) * W, ((p.y + 1) / 2) * H];
        expect(x).toBeGreaterThanOrEqual(r.x);
        expect(x).toBeLessThanOrEqual(r.x + r.w);
        expect(y).toBeGreaterThanOrEqual(r.y);
        expect(y).toBeLessThanOrEqual(r.y + r.h);
      }
    }
  });

  it('shows the mouth and what crosses its rectangle while it draws, and puts the figure back after', () => {
    const { root, face, hair, eye, camera } = figure();
    const frames = mouthFrames(face, root)!;
    frames.place(camera, 240, 240);
    const mouth = byName(root, 'FaceMouth');
    let seen: boolean[] = [];
    frames.only(() => (seen = [face.visible, mouth.visible, hair.visible, eye.visible]));
    // The eye is above the mouth's rectangle: not drawn.
    expect(seen).toEqual([false, true, false, false]);
    expect([face.visible, mouth.visible, hair.visible, eye.visible]).toEqual([true, false, true, true]);
  });

  it("says how far the mouth's box has moved since it was placed, with the head as posed now", () => {
    const { root, face, camera } = figure();
    const frames = mouthFrames(face, root)!;
    const [W, H] = [240, 240];
    frames.place(camera, W, H);
    const head = face.parent!;
    expect(frames.drift(camera, W, H)).toBe(0);
    // The head tilts; only its own turn is set, as the pose sets a bone's: drift updates the
    // face's world matrix and its parents'.
    head.rotation.z = 0.02;
    const turned = frames.drift(camera, W, H);
    expect(turned).toBeGreaterThan(0.2);
    expect(turned).toBeLessThan(3);
    head.rotation.z = 0.06;
    expect(frames.drift(camera, W, H)).toBeGreaterThan(2 * turned);
    // Tilted back: no drift.
    head.rotation.z = 0;
    expect(frames.drift(camera, W, H)).toBeCloseTo(0, 9);
    expect(frames.anchors().length).toBe(16);
  });

  it('is not made for a face without visemes', () => {
    const mesh = new Mesh(new PlaneGeometry(0.2, 0.2, 4, 4), new MeshBasicMaterial());
    const root = new Group().add(mesh);
    expect(mouthFrames(mesh, root)).toBeNull();
  });
});
