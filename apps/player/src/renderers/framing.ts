// Where the 3D camera stands. Full-body avatars in conversation are framed from the head, not
// from the environment's wide shot: the camera keeps the staging's direction (so the same part
// of the room shows behind the character) but comes close enough that the head fills
// FACE_SHARE of the stage's height, with the head in the upper third. Lip-sync must be seen.
// A tall stage (a 9:16 embed, TALL_ASPECT or narrower) has the height for the body: it is framed
// from above the head down to below the knees (issue 36, item 4).
import { Box3, type BufferAttribute, type Camera, type Mesh, type Object3D, type Vector3 } from 'three';

/** The share of the stage's height the head's box fills in conversation (issue 18: ≥ 1/5). */
export const FACE_SHARE = 0.22;
/** Where the head's centre sits, from the top of the stage (0 … 1). */
const HEAD_AT = 0.3;

/** Stages this narrow (width / height) or narrower show the figure, head to knees. */
export const TALL_ASPECT = 0.8;

export interface Shot {
  position: [number, number, number];
  target: [number, number, number];
}

/**
 * A shot of the head `head` (a world box) seen from the direction `from → to` with the camera's
 * vertical field of view: the head's height is `share` of the frame's height.
 */
export function headShot(head: Box3, from: Vector3, to: Vector3, fovDeg: number, share = FACE_SHARE): Shot {
  const h = head.max.y - head.min.y;
  const cx = (head.min.x + head.max.x) / 2;
  const cy = (head.min.y + head.max.y) / 2;
  const cz = (head.min.z + head.max.z) / 2;
  const half = Math.tan((fovDeg * Math.PI) / 360);
  // Visible height at distance d is 2·d·half; the head must be `share` of it.
  const d = h / share / (2 * half);
  // The direction along the ground, with the staging's gentle downward look kept.
  let dx = from.x - to.x,
    dy = from.y - to.y,
    dz = from.z - to.z;
  const len = Math.hypot(dx, dy, dz) || 1;
  dx /= len;
  dy /= len;
  dz /= len;
  const camY = cy + dy * d;
  const position: [number, number, number] = [cx + dx * d, camY, cz + dz * d];
  // Aim below the head so that it sits HEAD_AT from the top: offset = (0.5 − HEAD_AT) of the view.
  const drop = (0.5 - HEAD_AT) * 2 * d * half;
  return { position, target: [cx, cy - drop, cz] };
}

/**
 * A shot of the figure from above the head (`head`, a world box) down to below the knees (world
 * height `kneeY`), from the direction `from → to`: the whole span fills the frame's height with a
 * small margin, the head near the top.
 */
export function figureShot(head: Box3, kneeY: number, from: Vector3, to: Vector3, fovDeg: number): Shot {
  // The head box is the face; the hair rises above it.
  const top = head.max.y + 0.14;
  const bottom = kneeY - 0.12;
  const cx = (head.min.x + head.max.x) / 2;
  const cz = (head.min.z + head.max.z) / 2;
  const half = Math.tan((fovDeg * Math.PI) / 360);
  const d = (top - bottom) / (2 * half);
  let dx = from.x - to.x,
    dy = from.y - to.y,
    dz = from.z - to.z;
  const len = Math.hypot(dx, dy, dz) || 1;
  dx /= len;
  dy /= len;
  dz /= len;
  const mid = (top + bottom) / 2;
  return { position: [cx + dx * d, mid + dy * d, cz + dz * d], target: [cx, mid, cz] };
}

/**
 * The mesh's box at rest, in its own space. (three's computeBoundingBox widens the box by every
 * morph target's full reach, which for the face made it twice the face's height.)
 */
export function restBox(mesh: Mesh): Box3 {
  const data = mesh.userData as { restBox?: Box3 };
  data.restBox ??= new Box3().setFromBufferAttribute(mesh.geometry.getAttribute('position') as BufferAttribute);
  return data.restBox;
}

/** The head's box in world space: the `Face` mesh if the model has one, else the top of the model. */
export function headBox(root: Object3D): Box3 {
  root.updateMatrixWorld(true);
  const box = new Box3();
  const face = root.getObjectByName('Face') as Mesh | undefined;
  if (face?.isMesh) return box.copy(restBox(face)).applyMatrix4(face.matrixWorld);
  box.setFromObject(root);
  box.min.y = Math.max(box.min.y, box.max.y - 0.26);
  return box;
}

/** A world box projected on the stage, in CSS pixels of a w × h stage. */
export function projectBox(box: Box3, camera: Camera, w: number, h: number, v: Vector3): { x: number; y: number; w: number; h: number } {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let i = 0; i < 8; i++) {
    v.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).project(camera);
    const px = ((v.x + 1) / 2) * w,
      py = ((1 - v.y) / 2) * h;
    x0 = Math.min(x0, px);
    x1 = Math.max(x1, px);
    y0 = Math.min(y0, py);
    y1 = Math.max(y1, py);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}
