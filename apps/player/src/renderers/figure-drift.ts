// How far the figure has moved since its last whole frame, in software WebGL (decision 128,
// amendment of 2026-12-02, "whole frames when any part moved"). While the avatar speaks, the frames between two
// of the whole figure keep its pose; a whole frame comes when the pose of the frame's time has
// moved the figure by a step the eye could see. The mouth's box says it for the head
// (mouth-frames.ts); this says it for the rest: points spread over every part of the figure (the
// skinned body with its breathing, shoulders and arms; the hair or headscarf, whose outline is
// farther from the neck than the mouth), projected as drawn and as posed now. Only points inside
// the drawing buffer count (a hand below the stage moves nothing on it).
import { Matrix4, Vector3, Vector4, type BufferAttribute, type Camera, type Mesh, type Object3D, type SkinnedMesh } from 'three';

/** Points followed on each part of the figure. */
export const POINTS_PER_PART = 48;

export interface FigureDrift {
  /** After a whole frame: where the points are drawn. */
  hold(camera: Camera, width: number, height: number): void;
  /** The farthest a point on the drawing buffer has moved since `hold`, in drawing-buffer pixels,
   *  with the figure as posed now: the caller has updated its world matrices. 0 before `hold`. */
  drift(camera: Camera, width: number, height: number): number;
}

interface Part {
  mesh: Mesh;
  /** The points' rest positions (x, y, z), in the skinned mesh's bind space for a skinned part. */
  rest: Float32Array;
  /** A skinned part's four bones and weights per point. */
  bones?: Uint16Array;
  weights?: Float32Array;
}

/** The vertices a part's triangles use, `count` of them spread through the vertex list. */
function spread(mesh: Mesh, count: number): number[] {
  const g = mesh.geometry;
  const n = (g.getAttribute('position') as BufferAttribute).count;
  const used = new Uint8Array(n);
  if (g.index) for (let i = 0; i < g.index.count; i++) used[g.index.getX(i)] = 1;
  else used.fill(1);
  const vertices: number[] = [];
  for (let v = 0; v < n; v++) if (used[v]) vertices.push(v);
  const step = Math.max(1, vertices.length / count);
  const out: number[] = [];
  for (let i = 0; i < vertices.length && out.length < count; i += step) out.push(vertices[Math.floor(i)]!);
  return out;
}

function part(mesh: Mesh): Part {
  const g = mesh.geometry;
  const pos = g.getAttribute('position') as BufferAttribute;
  const picked = spread(mesh, POINTS_PER_PART);
  const rest = new Float32Array(picked.length * 3);
  const skinned = (mesh as SkinnedMesh).isSkinnedMesh ? (mesh as SkinnedMesh) : null;
  const p = new Vector3();
  picked.forEach((v, i) => {
    p.fromBufferAttribute(pos, v);
    if (skinned) p.applyMatrix4(skinned.bindMatrix);
    p.toArray(rest, i * 3);
  });
  if (!skinned) return { mesh, rest };
  const index = g.getAttribute('skinIndex') as BufferAttribute;
  const weight = g.getAttribute('skinWeight') as BufferAttribute;
  const bones = new Uint16Array(picked.length * 4);
  const weights = new Float32Array(picked.length * 4);
  picked.forEach((v, i) => {
    for (let k = 0; k < 4; k++) {
      bones[i * 4 + k] = index.getComponent(v, k);
      weights[i * 4 + k] = weight.getComponent(v, k);
    }
  });
  return { mesh, rest, bones, weights };
}

export function figureDrift(figure: Object3D): FigureDrift {
  const parts: Part[] = [];
  figure.traverse((o) => {
    const m = o as Mesh;
    if (m.isMesh && o.visible && (m.geometry.getAttribute('position') as BufferAttribute | undefined)?.count) parts.push(part(m));
  });
  const total = parts.reduce((n, p) => n + p.rest.length / 3, 0);
  const held = new Float64Array(total * 2);
  const now = new Float64Array(total * 2);
  let holding = false;
  const toClip = new Matrix4();
  const p = new Vector3();
  const sum = new Vector3();
  const q = new Vector3();
  const clip = new Vector4();
  const boneMatrices: Matrix4[] = [];

  // Every point projected into a `width` × `height` drawing buffer (x, y from the top-left; NaN
  // behind the camera).
  const project = (camera: Camera, width: number, height: number, out: Float64Array) => {
    let o = 0;
    for (const { mesh, rest, bones, weights } of parts) {
      const skinned = mesh as SkinnedMesh;
      toClip.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(mesh.matrixWorld);
      if (bones) {
        toClip.multiply(skinned.bindMatrixInverse);
        const { bones: list, boneInverses } = skinned.skeleton;
        for (let b = 0; b < list.length; b++) (boneMatrices[b] ??= new Matrix4()).multiplyMatrices(list[b]!.matrixWorld, boneInverses[b]!);
      }
      for (let i = 0; i < rest.length / 3; i++) {
        p.fromArray(rest, i * 3);
        if (bones && weights) {
          sum.set(0, 0, 0);
          for (let k = 0; k < 4; k++) {
            const w = weights[i * 4 + k]!;
            if (w) sum.addScaledVector(q.copy(p).applyMatrix4(boneMatrices[bones[i * 4 + k]!]!), w);
          }
          p.copy(sum);
        }
        clip.set(p.x, p.y, p.z, 1).applyMatrix4(toClip);
        const ok = clip.w > 0;
        out[o++] = ok ? ((clip.x / clip.w + 1) / 2) * width : NaN;
        out[o++] = ok ? ((1 - clip.y / clip.w) / 2) * height : NaN;
      }
    }
  };
  const inside = (x: number, y: number, width: number, height: number) => x >= 0 && y >= 0 && x <= width && y <= height;

  return {
    hold(camera, width, height) {
      project(camera, width, height, held);
      holding = true;
    },
    drift(camera, width, height) {
      if (!holding) return 0;
      project(camera, width, height, now);
      let most = 0;
      for (let i = 0; i < now.length; i += 2) {
        const [x0, y0, x1, y1] = [held[i]!, held[i + 1]!, now[i]!, now[i + 1]!];
        if (!inside(x0, y0, width, height) && !inside(x1, y1, width, height)) continue;
        most = Math.max(most, Math.hypot(x1 - x0, y1 - y0));
      }
      return most;
    },
  };
}
