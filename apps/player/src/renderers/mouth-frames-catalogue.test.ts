// @vitest-environment node
// The frames that redraw only the mouth (mouth-frames.ts) on the catalogue's own faces, as the
// software profile builds them (the hair and body simplified, the face lightened): whatever the
// head's turn, every triangle of the face and of the parts riding the head that reaches into the
// mouth's rectangle is drawn in a mouth frame. The rectangle is cleared before the mouth is drawn,
// so a triangle left out shows as a hole: fb-ethan showed a streak of the eye's white and of the
// cleared canvas on the rectangle's top rows, under his brow, when his head nodded (decision 128).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BackSide,
  Box3,
  FrontSide,
  PerspectiveCamera,
  Texture,
  Vector3,
  type BufferAttribute,
  type Mesh,
  type Object3D,
  type SkinnedMesh,
} from 'three';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader, type GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { reduceTriangles } from './fewer-triangles';
import { lightenFace } from './lighter-face';
import { mouthFrames, type BufferRect } from './mouth-frames';

const here = dirname(fileURLToPath(import.meta.url));
const CATALOGUE = resolve(here, '../../../server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as {
  avatars: { id: string; lightModel?: string }[];
};

async function loadFigure(id: string): Promise<{ root: Object3D; face: Mesh }> {
  const file = index.avatars.find((a) => a.id === id)!.lightModel!;
  const buf = readFileSync(join(CATALOGUE, file));
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  // Node has no image decoder, and the geometry is under test, not the textures.
  const noImages = () => ({ name: 'no-images', loadTexture: () => Promise.resolve(new Texture()) });
  const gltf = await new Promise<GLTF>((ok, fail) =>
    new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).register(noImages).parse(ab, '', ok, fail),
  );
  const root = gltf.scene;
  const face = root.getObjectByName('Face') as Mesh;
  await reduceTriangles(root);
  await lightenFace(face);
  root.updateMatrixWorld(true);
  return { root, face };
}

/** `camera` 0.8 m from `centre`, looking at it, turned by `yaw` and raised by `pitch` (radians):
 *  the head's turns and nods as the camera sees them. */
function aim(camera: PerspectiveCamera, centre: Vector3, pitch: number, yaw: number): void {
  camera.position
    .set(Math.sin(yaw) * Math.cos(pitch), Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch))
    .multiplyScalar(0.8)
    .add(centre);
  camera.lookAt(centre);
  camera.updateMatrixWorld();
}

/** Each vertex of `mesh` projected by `camera` (NDC x, y and z in turn), the morph targets at
 *  their influences: what the vertex shader computes. */
function projected(mesh: Mesh, camera: PerspectiveCamera): Float64Array {
  const g = mesh.geometry;
  const pos = g.getAttribute('position') as BufferAttribute;
  const targets = (g.morphAttributes.position ?? []) as BufferAttribute[];
  const out = new Float64Array(pos.count * 3);
  const p = new Vector3();
  for (let v = 0; v < pos.count; v++) {
    p.fromBufferAttribute(pos, v);
    targets.forEach((t, i) => {
      const k = mesh.morphTargetInfluences?.[i] ?? 0;
      if (k) p.set(p.x + k * t.getX(v), p.y + k * t.getY(v), p.z + k * t.getZ(v));
    });
    p.applyMatrix4(mesh.matrixWorld)
      .project(camera)
      .toArray(out, v * 3);
  }
  return out;
}

/** The corners of `mesh`'s triangles in the drawing buffer (x right, y up from the bottom, as
 *  WebGL counts), the morph targets at their influences. */
function corners(mesh: Mesh, camera: PerspectiveCamera, w: number, h: number): Float64Array {
  const ndc = projected(mesh, camera);
  const out = new Float64Array((ndc.length / 3) * 2);
  for (let v = 0; v < out.length / 2; v++) {
    out[v * 2] = ((ndc[v * 3]! + 1) / 2) * w;
    out[v * 2 + 1] = ((ndc[v * 3 + 1]! + 1) / 2) * h;
  }
  return out;
}

const key = (t: number[]) => [...t].sort((a, b) => a - b).join();

/** The triangles of `part` drawn in a mouth frame: the visible meshes on its vertices, within
 *  their draw range. */
function drawnOf(root: Object3D, part: Mesh): Set<string> {
  const drawn = new Set<string>();
  root.traverse((o) => {
    const m = o as Mesh;
    if (!m.isMesh || !m.visible || m.geometry.getAttribute('position') !== part.geometry.getAttribute('position')) return;
    let up: Object3D | null = m;
    for (; up; up = up.parent) if (!up.visible) return;
    const ix = m.geometry.index!;
    const end = Math.min(ix.count, m.geometry.drawRange.start + m.geometry.drawRange.count);
    for (let i = m.geometry.drawRange.start; i < end; i += 3) drawn.add(key([ix.getX(i), ix.getX(i + 1), ix.getX(i + 2)]));
  });
  return drawn;
}

/** What a whole frame shows in `r`: at each pixel's centre, the nearest triangle of `parts` that
 *  faces the camera (as their materials cull), drawn triangle by triangle over the pixels of its box. */
function seen(parts: Mesh[], camera: PerspectiveCamera, r: BufferRect, w: number, h: number) {
  const depth = new Float64Array(r.w * r.h).fill(Infinity);
  const owner: ({ part: Mesh; tri: string } | null)[] = new Array(r.w * r.h).fill(null);
  for (const part of parts) {
    const at = corners(part, camera, w, h);
    const z = depths(part, camera);
    const side = (part.material as { side: number }).side;
    const ix = part.geometry.index!;
    for (let i = 0; i < ix.count; i += 3) {
      const [a, b, c] = [ix.getX(i), ix.getX(i + 1), ix.getX(i + 2)];
      const [ax, ay, bx, by, cx, cy] = [at[a * 2]!, at[a * 2 + 1]!, at[b * 2]!, at[b * 2 + 1]!, at[c * 2]!, at[c * 2 + 1]!];
      const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
      if (area === 0 || (side === FrontSide && area < 0) || (side === BackSide && area > 0)) continue;
      const x0 = Math.max(r.x, Math.floor(Math.min(ax, bx, cx))),
        x1 = Math.min(r.x + r.w - 1, Math.ceil(Math.max(ax, bx, cx)));
      const y0 = Math.max(r.y, Math.floor(Math.min(ay, by, cy))),
        y1 = Math.min(r.y + r.h - 1, Math.ceil(Math.max(ay, by, cy)));
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const [px, py] = [x + 0.5, y + 0.5];
          const u = ((bx - px) * (cy - py) - (cx - px) * (by - py)) / area;
          const v = ((cx - px) * (ay - py) - (ax - px) * (cy - py)) / area;
          const t = 1 - u - v;
          if (u < 0 || v < 0 || t < 0) continue;
          const d = u * z[a]! + v * z[b]! + t * z[c]!;
          const k = (y - r.y) * r.w + (x - r.x);
          if (d < depth[k]!) [depth[k], owner[k]] = [d, { part, tri: key([a, b, c]) }];
        }
    }
  }
  return owner;
}

/** Each vertex's depth (NDC z), the morph targets at their influences. */
function depths(mesh: Mesh, camera: PerspectiveCamera): Float64Array {
  const ndc = projected(mesh, camera);
  return Float64Array.from({ length: ndc.length / 3 }, (_, v) => ndc[v * 3 + 2]!);
}

describe("the mouth frames of the catalogue's faces", () => {
  for (const id of ['fb-ethan', 'ub-aisha']) {
    it(`${id}: every triangle of the head's parts that reaches into the mouth's rectangle is drawn, whatever the head's turn`, async () => {
      const { root, face } = await loadFigure(id);
      const frames = mouthFrames(face, root)!;
      expect(frames).not.toBeNull();
      // The head's rigid parts (not the skinned body, always drawn): the face, the hair or
      // headscarf, the brows, the eyes; as a whole frame draws them.
      const parts: Mesh[] = [];
      root.traverse((o) => {
        const m = o as Mesh;
        if (m.isMesh && m.visible && !(m as SkinnedMesh).isSkinnedMesh && m.geometry.index) parts.push(m);
      });
      expect(parts).toContain(face);
      // About the software profile's scale: a drawing buffer of 216 × 277, a pixel about a
      // millimetre at the face; the camera around the face as the head turns and nods.
      const [W, H] = [216, 277];
      const centre = new Box3().setFromObject(face).getCenter(new Vector3());
      const camera = new PerspectiveCamera(20, W / H, 0.05, 100);
      face.morphTargetInfluences!.fill(0);
      face.morphTargetInfluences![face.morphTargetDictionary!.smile!] = 0.12;
      const lost: string[] = [];
      for (const pitch of [-0.2, -0.1, 0, 0.1, 0.2])
        for (const yaw of [-0.3, 0, 0.3]) {
          aim(camera, centre, pitch, yaw);
          const r = frames.place(camera, W, H)!;
          const whole = seen(parts, camera, r, W, H);
          frames.only(() => {
            const drawn = new Map(parts.map((p) => [p, drawnOf(root, p)]));
            const n = new Map<string, number>();
            for (const o of whole) if (o && !drawn.get(o.part)!.has(o.tri)) n.set(o.part.name, (n.get(o.part.name) ?? 0) + 1);
            for (const [name, pixels] of n) lost.push(`${name} at pitch ${pitch}, yaw ${yaw}: ${pixels} pixels`);
          });
        }
      expect(lost).toEqual([]);
    });
  }
});

describe("the mouth's kept pictures of the catalogue's faces", () => {
  for (const id of ['fb-ethan', 'ub-aisha']) {
    it(`${id}: start below the lids, open and closed, and below that hold every vertex in front of the eyes a viseme moves, whatever the head's turn`, async () => {
      const { root, face } = await loadFigure(id);
      const frames = mouthFrames(face, root)!;
      const [W, H] = [216, 277];
      const centre = new Box3().setFromObject(face).getCenter(new Vector3());
      const camera = new PerspectiveCamera(20, W / H, 0.05, 100);
      const eyes = ['LeftEye', 'RightEye'].map((n) => root.getObjectByName(n) as Mesh);
      const targets = Object.entries(face.morphTargetDictionary!).filter(([n]) => n.startsWith('viseme_'));
      const found: string[] = [];
      for (const pitch of [-0.2, 0, 0.2])
        for (const yaw of [-0.3, 0, 0.3]) {
          aim(camera, centre, pitch, yaw);
          const rect = frames.place(camera, W, H)!;
          const from = frames.belowEyes();
          // The rectangle (a deep box in perspective) reaches up past the row, so the cut matters.
          expect(H - (rect.y + rect.h)).toBeLessThan(from);
          // The lids, open and closed, are above it.
          const blink = face.morphTargetDictionary!.blink!;
          for (const closed of [0, 1]) {
            face.morphTargetInfluences!.fill(0);
            face.morphTargetInfluences![blink] = closed;
            const lids = projected(face, camera);
            const moves = face.geometry.morphAttributes.position![blink]!;
            for (let v = 0; v < moves.count; v++) {
              if (Math.abs(moves.getX(v)) + Math.abs(moves.getY(v)) + Math.abs(moves.getZ(v)) < 1e-3) continue;
              const row = ((1 - lids[v * 3 + 1]!) / 2) * H;
              if (row >= from) found.push(`a lid at row ${row.toFixed(1)} (from ${from}), closed ${closed}, pitch ${pitch}, yaw ${yaw}`);
            }
          }
          // Every vertex of the face that some viseme moves, at rest and fully moved, is below it;
          // but those deeper than the eyes' centres (the back of the mouth's cavity, inside the
          // head, hidden by the face: seen from below, they project higher).
          const eyeDepth = Math.min(...eyes.map((e) => e.getWorldPosition(new Vector3()).project(camera).z));
          for (const [name, i] of targets) {
            face.morphTargetInfluences!.fill(0);
            const rest = projected(face, camera);
            face.morphTargetInfluences![i] = 1;
            const moved = projected(face, camera);
            for (let v = 0; v < rest.length; v += 3) {
              if (Math.abs(moved[v]! - rest[v]!) + Math.abs(moved[v + 1]! - rest[v + 1]!) < 1e-7) continue;
              if (Math.min(rest[v + 2]!, moved[v + 2]!) > eyeDepth) continue;
              const row = Math.min(((1 - rest[v + 1]!) / 2) * H, ((1 - moved[v + 1]!) / 2) * H);
              if (row < from) found.push(`${name} moves a vertex at row ${row.toFixed(1)} (from ${from}), pitch ${pitch}, yaw ${yaw}`);
            }
          }
          face.morphTargetInfluences!.fill(0);
        }
      expect(found).toEqual([]);
    }, 60_000);
  }
});
