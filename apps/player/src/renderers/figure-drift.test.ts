// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  Bone,
  BoxGeometry,
  Float32BufferAttribute,
  Group,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  Vector3,
} from 'three';
import { figureDrift, POINTS_PER_PART } from './figure-drift';

const [W, H] = [200, 300];

/** A 1 m tall skinned column with two bones (hips and chest, the top half on the chest), a rigid
 *  "hat" on the chest bone, 2.5 m in front of the camera. */
function figure() {
  const geometry = new BoxGeometry(0.3, 1, 0.2, 2, 20, 2).translate(0, 0.5, 0);
  const pos = geometry.getAttribute('position');
  const index: number[] = [];
  const weight: number[] = [];
  for (let v = 0; v < pos.count; v++) {
    const top = pos.getY(v) > 0.5;
    index.push(top ? 1 : 0, 0, 0, 0);
    weight.push(1, 0, 0, 0);
  }
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(index, 4));
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(weight, 4));
  const hips = new Bone();
  const chest = new Bone();
  chest.position.y = 0.5;
  hips.add(chest);
  const body = new SkinnedMesh(geometry, new MeshBasicMaterial());
  body.add(hips);
  body.bind(new Skeleton([hips, chest]));
  const hat = new Mesh(new BoxGeometry(0.2, 0.1, 0.2), new MeshBasicMaterial());
  hat.position.y = 0.55;
  chest.add(hat);
  const root = new Group();
  root.add(body);
  root.position.set(0, -0.5, 0);
  const camera = new PerspectiveCamera(30, W / H, 0.1, 10);
  camera.position.set(0, 0, 2.5);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
  root.updateMatrixWorld(true);
  return { root, chest, hat, camera };
}

describe('how far the figure has moved since its last whole frame', () => {
  it('nothing before a whole frame, and nothing while the pose holds', () => {
    const { root, camera } = figure();
    const drift = figureDrift(root);
    expect(drift.drift(camera, W, H)).toBe(0);
    drift.hold(camera, W, H);
    expect(drift.drift(camera, W, H)).toBeCloseTo(0, 9);
  });

  it('follows a skinned part by its bones: a turn of the chest moves the top, and turned back nothing', () => {
    const { root, chest, camera } = figure();
    const drift = figureDrift(root);
    drift.hold(camera, W, H);
    chest.rotation.z = 0.02;
    root.updateMatrixWorld(true);
    const turned = drift.drift(camera, W, H);
    // The top of the column, 0.5 m from the chest's joint, moves 1 cm, and the hat's top 1.2 cm:
    // 2.2 pixels a centimetre at 2.5 m with this lens and buffer.
    expect(turned).toBeGreaterThan(2);
    expect(turned).toBeLessThan(3.5);
    chest.rotation.z = 0.04;
    root.updateMatrixWorld(true);
    expect(drift.drift(camera, W, H)).toBeGreaterThan(turned * 1.8);
    chest.rotation.z = 0;
    root.updateMatrixWorld(true);
    expect(drift.drift(camera, W, H)).toBeCloseTo(0, 6);
  });

  it('follows a rigid part riding a bone, and skips what is off the drawing buffer', () => {
    const { root, hat, camera } = figure();
    const drift = figureDrift(root);
    drift.hold(camera, W, H);
    hat.position.x += 0.01;
    root.updateMatrixWorld(true);
    // 1 cm at 2.4–2.6 m (the hat's front and back): 2.15–2.33 pixels.
    const moved = drift.drift(camera, W, H);
    expect(moved).toBeGreaterThan(2.2);
    expect(moved).toBeLessThan(2.4);
    // The same move far outside the buffer counts for nothing.
    const far = figure();
    const outside = figureDrift(far.root);
    far.root.position.x = 5;
    far.root.updateMatrixWorld(true);
    outside.hold(far.camera, W, H);
    far.hat.position.x += 0.01;
    far.root.updateMatrixWorld(true);
    expect(outside.drift(far.camera, W, H)).toBe(0);
  });

  it('follows at most a fixed number of points a part, spread over it', () => {
    const { root, chest, camera } = figure();
    const drift = figureDrift(root);
    drift.hold(camera, W, H);
    // Only the top half turns: the points must include some of it, though the part has more
    // vertices than points.
    const body = root.children[0] as SkinnedMesh;
    expect(body.geometry.getAttribute('position').count).toBeGreaterThan(POINTS_PER_PART);
    chest.rotation.x = 0.05;
    root.updateMatrixWorld(true);
    expect(drift.drift(camera, W, H)).toBeGreaterThan(0.5);
    expect(new Vector3().setFromMatrixPosition(chest.matrixWorld).y).toBeCloseTo(0, 6);
  });
});
