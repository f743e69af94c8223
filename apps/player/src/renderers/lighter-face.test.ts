// @vitest-environment node
// The face simplified for software WebGL (lighter-face.ts) on every catalogue light model: far
// fewer triangles, the mouth's triangles (lips, jaw, the cavity, the teeth) and the lids' exactly
// as built, the same vertices and morph targets, and the rest of the face within a couple of mm.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Box3, Texture, Vector3, type BufferAttribute, type Mesh } from 'three';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader, type GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { lightenFace, keptAsBuilt } from './lighter-face';

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

// Simplifying a whole face takes about a second quietly; CI's loaded first stage once took over 6.
describe('the lighter face of software WebGL', { timeout: 30_000 }, () => {
  it.each(models)('%s: fewer triangles, the mouth and the lids as built, the same vertices and morph targets', async (_id, file) => {
    const face = await loadFace(file);
    const g = face.geometry;
    const position = g.getAttribute('position') as BufferAttribute;
    const locked = keptAsBuilt(face, positionsOf(position));
    const before = Array.from(g.index!.array);
    const mouthBefore = triangleSet(before, (t) => t.every((v) => locked[v]));
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
    // Every triangle of the kept regions is kept (the lips meet at rest: the simplifier dropped
    // the triangles between them, and the open mouth showed skin; simplified lids let the eye's
    // catch-light through when closed).
    const mouthAfter = triangleSet(ix, (t) => t.every((v) => locked[v]));
    for (const t of mouthBefore) expect(mouthAfter.has(t), t).toBe(true);
    // The regions hold every vertex a viseme or the blink moves by more than a millimetre.
    for (const [name, k] of Object.entries(face.morphTargetDictionary!)) {
      if (!name.startsWith('viseme_') && name !== 'blink') continue;
      const t = targets![k]!;
      for (let i = 0; i < t.count; i++) if (Math.hypot(t.getX(i), t.getY(i), t.getZ(i)) > 0.001) expect(locked[i], `${name} ${i}`).toBe(1);
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
  });

  it('leaves a mesh without morph targets as it is', async () => {
    const face = await loadFace(models[0]![1]);
    face.geometry.morphAttributes = {};
    const before = face.geometry.index!.count / 3;
    expect(await lightenFace(face)).toBe(before);
  });
});
