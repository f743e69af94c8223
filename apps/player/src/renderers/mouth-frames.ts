// Frames that redraw only the mouth, for a 3D face in software WebGL (decision 128, amendment).
// A CPU rasteriser pays for every pixel and every triangle of a frame, and while the avatar speaks
// the mouth changes at every frame while the rest of the figure (the head's sway, the breathing)
// moves slowly. So between two frames of the whole figure, a frame keeps the figure's pose and
// redraws the rectangle the visemes can change: the face's triangles that reach into it (the same
// vertices and morph targets, a shorter index list), and whatever else of the figure crosses the
// rectangle, scissored to it, over the canvas kept from the frame before (preserveDrawingBuffer).
// With the pose unchanged, every pixel outside the rectangle is the one the whole frame would draw.
// Inside it, every triangle that reaches into the rectangle is drawn (near-part.ts).
import { Box3, Matrix4, Vector3, type BufferAttribute, type Camera, type Mesh, type Object3D, type SkinnedMesh } from 'three';
import { projectBox } from './framing';
import { choose, MOVING, nearPart, type NearPart } from './near-part';

/** Drawing-buffer pixels around the moving part's projection (rounding, the edge's blend). */
const PAD = 2;
const IDENTITY = new Matrix4();

/** A rectangle of the drawing buffer, in pixels, from its bottom-left corner (as WebGL counts). */
export interface BufferRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface MouthFrames {
  /** After a whole frame: where the mouth is drawn in a `width` × `height` drawing buffer, with
   *  `camera` (its region's view), and which parts of the figure cross it. Null: off the picture. */
  place(camera: Camera, width: number, height: number): BufferRect | null;
  /** Draws `draw` with only the mouth's triangles and the parts that cross the rectangle shown. */
  only(draw: () => void): void;
  /** Where `place` put the eight corners of the box the visemes move in, in drawing-buffer pixels
   *  from the top-left: x, y pairs (mouth-cache.ts fits kept pictures to them). */
  anchors(): Float64Array;
  /** The first drawing-buffer row (from the top) below the lids, open and closed, as `place` saw
   *  them: a kept picture of the mouth starts there, so it never shows an earlier blink or gaze (the
   *  eyeball shows only between the lids, and the closed upper lid reaches the lower one). The
   *  rectangle, a deep box seen in perspective, reaches up to the eyes; the visemes move nothing
   *  within 29 mm of the eyes' centres. */
  belowEyes(): number;
  /** How far the box's corners have moved from `anchors()` with the face where it is now (its
   *  world matrix, and its parents', updated for the pose as it is), in drawing-buffer pixels: the
   *  most at any corner. `camera` and the size as `place` had them. */
  drift(camera: Camera, width: number, height: number): number;
}

/** Where the face's moving vertices can go: each vertex's rest position and its reach with every
 *  viseme, and the smile (held still between whole frames, but where it holds them), at full
 *  weight on each axis's side: two visemes cross-fading, with the smile, stay inside. */
function reach(face: Mesh, movingVertex: Uint8Array): Box3 {
  const g = face.geometry;
  const pos = g.getAttribute('position') as BufferAttribute;
  const targets = (g.morphAttributes.position ?? []) as BufferAttribute[];
  const names = Object.entries(face.morphTargetDictionary ?? {});
  const moving = names.filter(([n]) => MOVING.test(n)).map(([, i]) => targets[i]!);
  const offsets = names.filter(([n]) => MOVING.test(n) || n === 'smile').map(([, i]) => targets[i]!);
  const index = g.index!;
  const box = new Box3();
  const lo = new Vector3(),
    hi = new Vector3(),
    d = new Vector3();
  // Every vertex of a triangle that moves: the pixels it covers before and after can change.
  const inMoving = new Uint8Array(pos.count);
  for (let v = 0; v < pos.count; v++)
    for (const t of moving) {
      d.fromBufferAttribute(t, v);
      if (d.lengthSq() > 1e-14) movingVertex[v] = 1;
    }
  for (let i = 0; i < index.count; i += 3) {
    const [a, b, c] = [index.getX(i), index.getX(i + 1), index.getX(i + 2)];
    if (movingVertex[a] || movingVertex[b] || movingVertex[c]) inMoving[a] = inMoving[b] = inMoving[c] = 1;
  }
  for (let v = 0; v < pos.count; v++) {
    if (!inMoving[v]) continue;
    lo.fromBufferAttribute(pos, v);
    hi.copy(lo);
    for (const t of offsets) {
      d.fromBufferAttribute(t, v);
      lo.add(d.clone().min(new Vector3()));
      hi.add(d.max(new Vector3()));
    }
    box.expandByPoint(lo).expandByPoint(hi);
  }
  return box;
}

const nearIdentity = (m: Matrix4) => m.elements.every((e, i) => Math.abs(e - IDENTITY.elements[i]!) < 1e-5);

/** The mouth frames of a catalogue face (a `Face` mesh with viseme targets); null for any other. */
export function mouthFrames(face: Mesh, figure: Object3D): MouthFrames | null {
  const g = face.geometry;
  if (!g.index || !g.morphTargetsRelative || !g.morphAttributes.position?.length || !face.morphTargetInfluences) return null;
  const pos = g.getAttribute('position') as BufferAttribute;
  const moving = reach(face, new Uint8Array(pos.count));
  if (moving.isEmpty()) return null;

  figure.updateMatrixWorld(true);
  const fromWorld = face.matrixWorld.clone().invert();
  const toFace = new Matrix4();
  // The face, and the parts that ride the head with it (hair, a headscarf) in the same space,
  // are drawn by their triangles that reach into the rectangle; other parts whole, or not at all
  // if they miss it.
  const whole: Mesh[] = [];
  const parts: NearPart[] = [];
  figure.traverse((o) => {
    const m = o as Mesh;
    if (!m.isMesh || !o.visible) return;
    toFace.multiplyMatrices(fromWorld, m.matrixWorld);
    const rigid = !(m as SkinnedMesh).isSkinnedMesh && !!m.geometry.index && !Array.isArray(m.material) && nearIdentity(toFace);
    if (rigid) parts.push(nearPart(m));
    else whole.push(m);
  });

  let hidden: Object3D[] = [];
  let unchosen: { camera: Camera; rect: BufferRect; width: number; height: number } | null = null;
  const anchors = new Float64Array(16);
  let belowEyes = 0;
  const box = new Box3();
  const corner = new Vector3();
  // The lids' vertices that the blink moves, open and closed, in the face's space.
  const lids: number[] = [];
  const blink = g.morphAttributes.position?.[face.morphTargetDictionary?.blink ?? -1] as BufferAttribute | undefined;
  if (blink)
    for (let v = 0; v < pos.count; v++) {
      if (Math.abs(blink.getX(v)) + Math.abs(blink.getY(v)) + Math.abs(blink.getZ(v)) < 1e-3) continue;
      lids.push(
        pos.getX(v),
        pos.getY(v),
        pos.getZ(v),
        pos.getX(v) + blink.getX(v),
        pos.getY(v) + blink.getY(v),
        pos.getZ(v) + blink.getZ(v),
      );
    }
  const now = new Float64Array(16);
  const boxCorners = (camera: Camera, width: number, height: number, out: Float64Array) => {
    for (let i = 0; i < 8; i++) {
      corner
        .set(i & 1 ? moving.max.x : moving.min.x, i & 2 ? moving.max.y : moving.min.y, i & 4 ? moving.max.z : moving.min.z)
        .applyMatrix4(face.matrixWorld)
        .project(camera);
      out[2 * i] = ((corner.x + 1) / 2) * width;
      out[2 * i + 1] = ((1 - corner.y) / 2) * height;
    }
  };
  const toClip = new Matrix4();
  const overlaps = (b: { x: number; y: number; w: number; h: number }, r: BufferRect, height: number) =>
    b.x < r.x + r.w && b.x + b.w > r.x && height - (b.y + b.h) < r.y + r.h && height - b.y > r.y;

  return {
    place(camera, width, height) {
      const b = projectBox(box.copy(moving).applyMatrix4(face.matrixWorld), camera, width, height, corner);
      const x0 = Math.max(0, Math.floor(b.x) - PAD),
        x1 = Math.min(width, Math.ceil(b.x + b.w) + PAD);
      const top = Math.max(0, Math.floor(b.y) - PAD),
        bottom = Math.min(height, Math.ceil(b.y + b.h) + PAD);
      if (!Number.isFinite(x0 + x1 + top + bottom) || x1 <= x0 || bottom <= top) return null;
      const rect = { x: x0, y: height - bottom, w: x1 - x0, h: bottom - top };
      belowEyes = 0;
      for (let i = 0; i < lids.length; i += 3) {
        corner
          .set(lids[i]!, lids[i + 1]!, lids[i + 2]!)
          .applyMatrix4(face.matrixWorld)
          .project(camera);
        belowEyes = Math.max(belowEyes, Math.ceil(((1 - corner.y) / 2) * height) + 1);
      }
      boxCorners(camera, width, height, anchors);
      // A skinned part's box needs its skinning done on the CPU: it is always drawn.
      hidden = whole.filter((m) => {
        if ((m as SkinnedMesh).isSkinnedMesh) return false;
        if (!m.geometry.boundingBox) m.geometry.computeBoundingBox();
        const mb = projectBox(box.copy(m.geometry.boundingBox!).applyMatrix4(m.matrixWorld), camera, width, height, corner);
        return !overlaps(mb, rect, height);
      });
      // The triangles near the mouth are chosen by the first mouth frame drawn in 3D at this pose
      // (most show a kept picture instead: mouth-cache.ts).
      unchosen = { camera, rect, width, height };
      return rect;
    },
    only(draw) {
      if (unchosen) {
        const { camera, rect, width, height } = unchosen;
        for (const part of parts) {
          toClip.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(part.source.matrixWorld);
          choose(part, toClip, rect, width, height);
        }
        unchosen = null;
      }
      const swap = (mouthOnly: boolean) => {
        for (const { source, mesh, any } of parts) {
          source.visible = !mouthOnly;
          mesh.visible = mouthOnly && any;
        }
        for (const o of hidden) o.visible = !mouthOnly;
      };
      swap(true);
      try {
        draw();
      } finally {
        swap(false);
      }
    },
    anchors: () => anchors,
    drift(camera, width, height) {
      face.updateWorldMatrix(true, false);
      boxCorners(camera, width, height, now);
      let most = 0;
      for (let i = 0; i < 16; i += 2) most = Math.max(most, Math.hypot(now[i]! - anchors[i]!, now[i + 1]! - anchors[i + 1]!));
      return most;
    },
    belowEyes: () => belowEyes,
  };
}
