// @vitest-environment node
// The lighter eyes of software WebGL (fewer-triangles.ts, decision 128): every catalogue light
// model's eyeball keeps at most 40 % of its triangles (1,600 → 500–565), the same vertices, and
// the same picture seen from the front: the pupil, the iris and the white where they were. And
// the clothes' trims (a collar, a cuff, a neckline's hem) keep every triangle while the body
// around them is simplified.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Texture, type BufferAttribute, type Mesh } from 'three';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader, type GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { lightenEyes, reduceTriangles, splitTrims } from './fewer-triangles';

const here = dirname(fileURLToPath(import.meta.url));
const CATALOGUE = resolve(here, '../../../server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as {
  avatars: { id: string; lightModel?: string }[];
};
const models = index.avatars.filter((a) => a.lightModel).map((a) => [a.id, a.lightModel!] as const);

async function loadModel(file: string): Promise<GLTF> {
  const buf = readFileSync(join(CATALOGUE, file));
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const noImages = () => ({ name: 'no-images', loadTexture: () => Promise.resolve(new Texture()) });
  return new Promise<GLTF>((ok, fail) => new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).register(noImages).parse(ab, '', ok, fail));
}

async function loadEyes(file: string): Promise<Mesh[]> {
  const gltf = await loadModel(file);
  return ['RightEye', 'LeftEye'].map((n) => gltf.scene.getObjectByName(n) as Mesh);
}

/** The share of the eye's radius its opening between the lids can show, turned as far as it turns. */
const SHOWN = 0.85;

/** The eye seen from the front (it looks down +Z), as a `n` × `n` grid over its disc: each
 *  point's colour (about sRGB) on the nearest front-facing triangle, null off the eye. */
function picture(mesh: Mesh, n = 48): ([number, number, number] | null)[] {
  const g = mesh.geometry;
  const p = g.getAttribute('position') as BufferAttribute;
  const c = g.getAttribute('color') as BufferAttribute;
  const ix = g.index!;
  let r = 0;
  for (let v = 0; v < p.count; v++) r = Math.max(r, Math.hypot(p.getX(v), p.getY(v)));
  const out: ([number, number, number] | null)[] = [];
  for (let row = 0; row < n; row++)
    for (let col = 0; col < n; col++) {
      const [x, y] = [((col + 0.5) / n) * 2 * r - r, ((row + 0.5) / n) * 2 * r - r];
      // What the lids' opening can show: the ball's rim (its outline) is always under them.
      if (Math.hypot(x, y) > SHOWN * r) continue;
      let best: { z: number; rgb: [number, number, number] } | null = null;
      for (let i = 0; i < ix.count; i += 3) {
        const [a, b, d] = [ix.getX(i), ix.getX(i + 1), ix.getX(i + 2)];
        const [ax, ay, bx, by, dx, dy] = [p.getX(a), p.getY(a), p.getX(b), p.getY(b), p.getX(d), p.getY(d)];
        const area = (bx - ax) * (dy - ay) - (dx - ax) * (by - ay);
        if (area <= 0) continue;
        const wb = ((x - ax) * (dy - ay) - (dx - ax) * (y - ay)) / area;
        const wd = ((bx - ax) * (y - ay) - (x - ax) * (by - ay)) / area;
        const wa = 1 - wb - wd;
        if (wa < 0 || wb < 0 || wd < 0) continue;
        const z = wa * p.getZ(a) + wb * p.getZ(b) + wd * p.getZ(d);
        if (best && best.z >= z) continue;
        const ch = (k: number) => Math.sqrt(wa * c.getComponent(a, k) + wb * c.getComponent(b, k) + wd * c.getComponent(d, k));
        best = { z, rgb: [ch(0), ch(1), ch(2)] };
      }
      out.push(best?.rgb ?? null);
    }
  return out;
}

describe('the lighter eyes of software WebGL', () => {
  it.each(models)('%s: at most 40 % of the triangles, the same vertices, the same picture from the front', async (_id, file) => {
    const eyes = await loadEyes(file);
    const g = eyes[0]!.geometry;
    const position = g.getAttribute('position');
    const before = g.index!.count / 3;
    const seen = picture(eyes[0]!);

    await lightenEyes(eyes);

    expect(g.index!.count / 3).toBeLessThanOrEqual(before * 0.4);
    expect(g.getAttribute('position')).toBe(position);
    expect(eyes[1]!.geometry).toBe(g);
    // The same picture: the same points on the eye, their colours a few units in 255 apart.
    const now = picture(eyes[0]!);
    const diffs: number[] = [];
    seen.forEach((rgb, i) => {
      expect(!!now[i], `point ${i} on the eye before and after`).toBe(!!rgb);
      if (rgb && now[i]) diffs.push(Math.max(...rgb.map((v, k) => Math.abs(v - now[i]![k]!))));
    });
    diffs.sort((a, b) => a - b);
    const mean = diffs.reduce((s, d) => s + d, 0) / diffs.length;
    // Measured: 2.5–4.0 on average, 9–18 at the 95th percentile (the iris's fibres, one per
    // column of the grid, are blended where columns go: a sample is a quarter of a pixel).
    expect(mean * 255).toBeLessThan(5);
    expect(diffs[Math.floor(diffs.length * 0.95)]! * 255).toBeLessThan(20);
  });
});

/** A triangle as a key that survives a rewritten index list (its corners, in any order). */
const key = (ix: ArrayLike<number>, i: number) => [ix[i]!, ix[i + 1]!, ix[i + 2]!].sort((a, b) => a - b).join(',');

describe("the clothes' trims in software WebGL", () => {
  it('a part that touches the rest of the mesh nowhere, and is small, is a trim', () => {
    // A 10 × 10 grid (200 triangles); a strip of 4 triangles apart from it; and 4 triangles on
    // copies of the grid's own vertices (a colour edge splits them so): joined by position.
    const positions: number[] = [];
    const indices: number[] = [];
    for (let y = 0; y <= 10; y++) for (let x = 0; x <= 10; x++) positions.push(x, y, 0);
    for (let y = 0; y < 10; y++)
      for (let x = 0; x < 10; x++) {
        const v = y * 11 + x;
        indices.push(v, v + 1, v + 12, v, v + 12, v + 11);
      }
    const strip = positions.length / 3;
    for (let x = 0; x <= 2; x++) positions.push(x, 0, 0.5, x, 0.2, 0.5);
    for (let x = 0; x < 2; x++)
      indices.push(strip + 2 * x, strip + 2 * x + 2, strip + 2 * x + 3, strip + 2 * x, strip + 2 * x + 3, strip + 2 * x + 1);
    const copies = positions.length / 3;
    for (const v of [0, 1, 12, 11, 2, 13]) positions.push(...positions.slice(v * 3, v * 3 + 3));
    indices.push(
      copies,
      copies + 1,
      copies + 2,
      copies,
      copies + 2,
      copies + 3,
      copies + 1,
      copies + 4,
      copies + 5,
      copies + 1,
      copies + 5,
      copies + 2,
    );

    const { main, trims } = splitTrims(Uint32Array.from(indices), Float32Array.from(positions));

    expect(trims.length / 3).toBe(4);
    expect(Math.min(...trims)).toBe(strip);
    expect(main.length / 3).toBe(204);
  });

  it.each(models)('%s: every trim keeps its triangles, the body around them still loses most of its own', async (id, file) => {
    const { scene } = await loadModel(file);
    const bodies: { mesh: Mesh; trims: string[]; main: number }[] = [];
    scene.traverse((o) => {
      const mesh = o as Mesh;
      if (!mesh.isMesh || !/^Body/.test(mesh.name) || (mesh.geometry.index?.count ?? 0) / 3 <= 2000) return;
      const g = mesh.geometry;
      const position = g.getAttribute('position');
      const { main, trims } = splitTrims(
        new Uint32Array(g.index!.array),
        Float32Array.from({ length: position.count * 3 }, (_, i) => position.getComponent(Math.floor(i / 3), i % 3)),
      );
      bodies.push({ mesh, trims: Array.from({ length: trims.length / 3 }, (_, t) => key(trims, t * 3)), main: main.length / 3 });
    });
    expect(bodies.length).toBeGreaterThan(0);
    // Every catalogue outfit has a collar, cuffs or a hem but ub-aisha's, under its headscarf.
    if (id !== 'ub-aisha') expect(bodies.some((b) => b.trims.length >= 150)).toBe(true);

    await reduceTriangles(scene);

    for (const { mesh, trims, main } of bodies) {
      const ix = mesh.geometry.index!.array;
      const now = new Set(Array.from({ length: ix.length / 3 }, (_, t) => key(ix, t * 3)));
      expect(
        trims.filter((t) => !now.has(t)),
        `${mesh.name}'s trim triangles lost`,
      ).toEqual([]);
      // Measured: the bodies keep 10 % of their main surface (a tenth of 6,200–12,000 triangles).
      expect(now.size - trims.length).toBeLessThanOrEqual(main * 0.15);
    }
  });
});
