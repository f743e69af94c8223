// @vitest-environment node
// The face simplified for software WebGL (lighter-face.ts) on every catalogue light model: far
// fewer triangles, the lids' exactly as built, the mouth's (lips, jaw, the cavity, the teeth) a
// quarter or so with the same picture at rest and open, the same vertices and morph targets, and
// the rest of the face within a couple of mm.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Box3, Texture, Vector3, type BufferAttribute, type Mesh } from 'three';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader, type GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { lightenFace, keptAsBuilt, movedBy } from './lighter-face';

const here = dirname(fileURLToPath(import.meta.url));
const CATALOGUE = resolve(here, '../../../server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as {
  avatars: { id: string; lightModel?: string }[];
};
const models = index.avatars.filter((a) => a.lightModel).map((a) => [a.id, a.lightModel!] as const);

async function loadFace(file: string): Promise<Mesh> {
  const buf = readFileSync(join(CATALOGUE, file));
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  // Node has no image decoder, and the face's geometry is under test, not its texture.
  const noImages = () => ({ name: 'no-images', loadTexture: () => Promise.resolve(new Texture()) });
  const gltf = await new Promise<GLTF>((ok, fail) =>
    new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).register(noImages).parse(ab, '', ok, fail),
  );
  return gltf.scene.getObjectByName('Face') as Mesh;
}

const positionsOf = (a: BufferAttribute) => {
  const out = new Float32Array(a.count * 3);
  for (let i = 0; i < a.count; i++) out.set([a.getX(i), a.getY(i), a.getZ(i)], i * 3);
  return out;
};

/** Triangles as sorted-by-rotation keys, so the same triangle compares equal. */
function triangleSet(ix: ArrayLike<number>, keep: (t: number[]) => boolean): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < ix.length; i += 3) {
    const t = [ix[i]!, ix[i + 1]!, ix[i + 2]!];
    if (!keep(t)) continue;
    const m = t.indexOf(Math.min(...t));
    out.add([t[m], t[(m + 1) % 3], t[(m + 2) % 3]].join());
  }
  return out;
}

const mouthTriangles = (ix: ArrayLike<number>, locked: Uint8Array, lid: Uint8Array) =>
  triangleSet(ix, (t) => t.every((v) => locked[v]) && !t.some((v) => lid[v])).size;

/** The mouth seen from the front (the face looks down +Z) in `pose` (a viseme at full weight, or
 *  none), as a grid of points over the box of the kept mouth's vertices: each point's colour on
 *  the nearest triangle (vertex colour, about sRGB) and its depth; null where no triangle is.
 *  Drawn triangle by triangle over only the grid points inside its box (a point tested against
 *  every triangle took 20–30 s a face), in the same order, so each point sees the same tests. */
function mouthPicture(face: Mesh, ix: ArrayLike<number>, region: Uint8Array, pose: string | null, n = 56) {
  const g = face.geometry;
  const p = g.getAttribute('position') as BufferAttribute;
  const c = g.getAttribute('color') as BufferAttribute;
  const k = pose === null ? undefined : face.morphTargetDictionary![pose];
  const d = k === undefined ? null : (g.morphAttributes.position as BufferAttribute[])[k]!;
  const posed = new Float64Array(p.count * 3);
  for (let v = 0; v < p.count; v++) for (let j = 0; j < 3; j++) posed[v * 3 + j] = p.getComponent(v, j) + (d ? d.getComponent(v, j) : 0);
  const at = (v: number, j: number) => posed[v * 3 + j]!;
  const box = new Box3();
  const q = new Vector3();
  for (let v = 0; v < p.count; v++) if (region[v]) box.expandByPoint(q.set(at(v, 0), at(v, 1), at(v, 2)));
  const xs = Array.from({ length: n }, (_v, col) => box.min.x + ((col + 0.5) / n) * (box.max.x - box.min.x));
  const ys = Array.from({ length: n }, (_v, row) => box.min.y + ((row + 0.5) / n) * (box.max.y - box.min.y));
  // The grid points from `lo` to `hi` (inclusive), as indices into xs or ys.
  const span = (axis: number[], lo: number, hi: number) => [axis.findIndex((v) => v >= lo), axis.findLastIndex((v) => v <= hi)];
  const out: ({ z: number; rgb: number[] } | null)[] = new Array(n * n).fill(null);
  for (let i = 0; i < ix.length; i += 3) {
    const [a, b, e] = [ix[i]!, ix[i + 1]!, ix[i + 2]!];
    const [ax, ay, bx, by, ex, ey] = [at(a, 0), at(a, 1), at(b, 0), at(b, 1), at(e, 0), at(e, 1)];
    const area = (bx - ax) * (ey - ay) - (ex - ax) * (by - ay);
    if (area <= 0) continue;
    const [c0, c1] = span(xs, Math.min(ax, bx, ex), Math.max(ax, bx, ex));
    const [r0, r1] = span(ys, Math.min(ay, by, ey), Math.max(ay, by, ey));
    if (c0! < 0 || r0! < 0) continue;
    for (let row = r0!; row <= r1!; row++)
      for (let col = c0!; col <= c1!; col++) {
        const [x, y] = [xs[col]!, ys[row]!];
        const wb = ((x - ax) * (ey - ay) - (ex - ax) * (y - ay)) / area;
        const we = ((bx - ax) * (y - ay) - (x - ax) * (by - ay)) / area;
        const wa = 1 - wb - we;
        if (wa < 0 || wb < 0 || we < 0) continue;
        const z = wa * at(a, 2) + wb * at(b, 2) + we * at(e, 2);
        const best = out[row * n + col];
        if (best && best.z >= z) continue;
        out[row * n + col] = {
          z,
          rgb: [0, 1, 2].map((j) =>
            Math.sqrt(Math.max(0, wa * c.getComponent(a, j) + wb * c.getComponent(b, j) + we * c.getComponent(e, j))),
          ),
        };
      }
  }
  return out;
}

// Simplifying a whole face takes a second or more; CI's loaded first stage once took over 6 s.
describe('the lighter face of software WebGL', { timeout: 30_000 }, () => {
  it.each(models)(
    '%s: fewer triangles, the lids as built, the same vertices and morph targets',
    async (_id, file) => {
      const face = await loadFace(file);
      const g = face.geometry;
      const position = g.getAttribute('position') as BufferAttribute;
      const locked = keptAsBuilt(face, positionsOf(position));
      const before = Array.from(g.index!.array);
      const lidsBefore = triangleSet(before, (t) => t.every((v) => locked[v]) && t.some((v) => movedBy(face, 'blink', 0.0002)[v]));
      const targets = g.morphAttributes.position;
      const box = new Box3().setFromBufferAttribute(position);

      const after = await lightenFace(face);

      expect(after).toBe(g.index!.count / 3);
      // At most 85 % of the triangles (ub-aisha, the smallest face: 7,681 → 6,379; the others
      // lose 27–40 %).
      expect(after).toBeLessThan((before.length / 3) * 0.85);
      // The same vertices, the same morph targets: only the index list changed.
      expect(g.getAttribute('position')).toBe(position);
      expect(g.morphAttributes.position).toBe(targets);
      const ix = Array.from(g.index!.array);
      expect(Math.max(...ix)).toBeLessThan(position.count);
      // Every triangle of the lids is kept (simplified lids let the eye's catch-light through when
      // closed); the mouth's are a quarter or so, its picture the same (below).
      const lid = movedBy(face, 'blink', 0.0002);
      const lidsAfter = triangleSet(ix, (t) => t.every((v) => locked[v]));
      for (const t of lidsBefore) expect(lidsAfter.has(t), t).toBe(true);
      expect(mouthTriangles(ix, locked, lid)).toBeLessThan(mouthTriangles(before, locked, lid) * 0.45);
      // The regions hold every vertex a viseme or the blink moves by more than a millimetre.
      for (const [name, k] of Object.entries(face.morphTargetDictionary!)) {
        if (!name.startsWith('viseme_') && name !== 'blink') continue;
        const t = targets![k]!;
        for (let i = 0; i < t.count; i++)
          if (Math.hypot(t.getX(i), t.getY(i), t.getZ(i)) > 0.001) expect(locked[i], `${name} ${i}`).toBe(1);
      }
      // The simplified face keeps its extent within 2 mm on every side (no part lost).
      const used = new Set(ix);
      const kept = new Box3();
      const p = new Vector3();
      for (const v of used) kept.expandByPoint(p.fromBufferAttribute(position, v));
      for (const k of ['x', 'y', 'z'] as const) {
        expect(Math.abs(kept.min[k] - box.min[k]), `min ${k}`).toBeLessThan(0.002);
        expect(Math.abs(kept.max[k] - box.max[k]), `max ${k}`).toBeLessThan(0.002);
      }
    },
    60_000,
  );

  it.each(models.filter(([id]) => /aisha|ethan/.test(id)))(
    '%s: the mouth looks the same closed and saying "ah", "oh" and "p": the lips, the teeth and the dark cavity where they were',
    async (_id, file) => {
      const face = await loadFace(file);
      const g = face.geometry;
      const locked = keptAsBuilt(face, positionsOf(g.getAttribute('position') as BufferAttribute));
      const lid = movedBy(face, 'blink', 0.0002);
      const region = locked.map((v, i) => (v && !lid[i] ? 1 : 0));
      const before = Array.from(g.index!.array);
      const pictures = [null, 'viseme_aa', 'viseme_O', 'viseme_PP'].map((pose) => mouthPicture(face, before, region, pose));
      await lightenFace(face);
      const after = Array.from(g.index!.array);
      for (const [i, pose] of [null, 'viseme_aa', 'viseme_O', 'viseme_PP'].entries()) {
        const now = mouthPicture(face, after, region, pose);
        let far = 0,
          cover = 0,
          changed = 0,
          sum = 0,
          n = 0;
        pictures[i]!.forEach((was, j) => {
          const is = now[j];
          if (!!was !== !!is) cover++;
          if (!was || !is) return;
          const diff = Math.max(...was.rgb.map((v, k) => Math.abs(v - is.rgb[k]!)));
          sum += diff;
          n++;
          if (diff > 0.1) changed++;
          if (Math.abs(was.z - is.z) > 0.001) far++;
        });
        // Measured (56 × 56 points): on average 0.5–1.2 units in 255 apart, under 0.4 % of the
        // points a tenth or more apart or covered only before or after, 0.3–3 % more than 1 mm
        // deeper or shallower (a drawing-buffer pixel is about 1.5 mm of the face).
        expect((sum / n) * 255, `${pose}: mean difference`).toBeLessThan(3);
        expect(changed / n, `${pose}: points changed`).toBeLessThan(0.01);
        expect(cover / n, `${pose}: points covered only before or after`).toBeLessThan(0.01);
        expect(far / n, `${pose}: points moved in depth`).toBeLessThan(0.06);
      }
    },
    120_000,
  );

  it('leaves a mesh without morph targets as it is', async () => {
    const face = await loadFace(models[0]![1]);
    face.geometry.morphAttributes = {};
    const before = face.geometry.index!.count / 3;
    expect(await lightenFace(face)).toBe(before);
  });
});
