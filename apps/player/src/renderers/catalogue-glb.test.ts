// @vitest-environment node
// Every GLB of the default catalogue loads in three.js and carries what the player drives:
// the 15 viseme morph targets plus blink and smile on the face, a skeleton for idle motion,
// eyeballs that turn, textures; stored meshopt-compressed. Each has a light model for software
// WebGL (decision 128): the same character, its face with about half the triangles or fewer.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Texture, type Bone, type Mesh, type Object3D } from 'three';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader, type GLTF, type GLTFParser } from 'three/addons/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { FACE_MORPH_TARGETS, VISEMES } from '@parla/shared/visemes';

const here = dirname(fileURLToPath(import.meta.url));
const CATALOGUE = resolve(here, '../../../server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as {
  avatars: { id: string; type: string; model: string; lightModel?: string }[];
  environments: { id: string; model: string }[];
};

/** The GLB's JSON chunk. */
function gltfJson(file: string): {
  images?: { mimeType: string; bufferView: number }[];
  bufferViews: { byteLength: number; extensions?: Record<string, { byteLength: number }> }[];
  extensionsRequired?: string[];
} {
  const buf = readFileSync(join(CATALOGUE, file));
  return JSON.parse(buf.subarray(20, 20 + buf.readUInt32LE(12)).toString('utf8'));
}

function parse(file: string): Promise<GLTF> {
  const buf = readFileSync(join(CATALOGUE, file));
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  // Node has no image decoder: textures are checked from the file's JSON (below), not decoded.
  const noImages = (_parser: GLTFParser) => ({ name: 'no-images', loadTexture: () => Promise.resolve(new Texture()) });
  return new Promise((ok, fail) => new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).register(noImages).parse(ab, '', ok, fail));
}

const meshes = (root: Object3D) => {
  const out: Mesh[] = [];
  root.traverse((o) => (o as Mesh).isMesh && out.push(o as Mesh));
  return out;
};

const characters = index.avatars.filter((a) => a.type === '2d' || a.type === '3d');
/** Every character's GLB and its light model. */
const models = characters.flatMap((a) => [[a.id, a.model] as const, [`${a.id} (light)`, a.lightModel ?? ''] as const]);
const triangles = (m: Mesh) => m.geometry.index!.count / 3;

describe('catalogue GLB avatars', () => {
  it('has four upper-body and two full-body characters', () => {
    expect(characters.filter((a) => a.type === '2d')).toHaveLength(4);
    expect(characters.filter((a) => a.type === '3d')).toHaveLength(2);
  });

  it.each(models)('%s loads, has the 17 face morph targets and a skeleton', async (_id, model) => {
    const gltf = await parse(model);
    const all = meshes(gltf.scene);
    const face = all.find((m) => m.name === 'Face')!;
    expect(face).toBeDefined();
    expect(Object.keys(face.morphTargetDictionary!).sort()).toEqual([...FACE_MORPH_TARGETS].sort());
    // Every viseme but rest really moves the face.
    const positions = face.geometry.morphAttributes.position!;
    for (const v of VISEMES.filter((x) => x !== 'sil')) {
      const attr = positions[face.morphTargetDictionary![`viseme_${v}`]!]!;
      let moved = 0;
      for (let i = 0; i < attr.count; i++) moved = Math.max(moved, Math.abs(attr.getY(i)) + Math.abs(attr.getX(i)));
      expect(moved, v).toBeGreaterThan(0.001);
    }
    const bones = new Set<string>();
    gltf.scene.traverse((o) => (o as Bone).isBone && bones.add(o.name));
    for (const b of ['Hips', 'Spine', 'Chest', 'Neck', 'Head', 'LeftUpperArm', 'RightUpperArm']) expect(bones.has(b), b).toBe(true);
    expect(all.some((m) => (m as unknown as { isSkinnedMesh?: boolean }).isSkinnedMesh)).toBe(true);
  });

  it.each(characters.map((a) => [a.id, a.model] as const))(
    '%s has eyeballs that can turn, catch-lights, brows and small baked textures',
    async (_id, model) => {
      const gltf = await parse(model);
      for (const name of ['RightEye', 'LeftEye']) {
        const eye = gltf.scene.getObjectByName(name) as Mesh;
        expect(eye?.isMesh, name).toBe(true);
        // The eye turns about its own centre: its mesh is centred on the node.
        eye.geometry.computeBoundingSphere();
        expect(eye.geometry.boundingSphere!.center.length(), name).toBeLessThan(0.002);
        expect(eye.parent?.name).toBe('Head');
      }
      expect(gltf.scene.getObjectByName('EyeShine')).toBeDefined();
      expect(gltf.scene.getObjectByName('Brows')).toBeDefined();
      const json = gltfJson(model);
      expect(json.images?.length).toBeGreaterThanOrEqual(3);
      for (const image of json.images!) {
        expect(image.mimeType).toBe('image/png');
        expect(json.bufferViews[image.bufferView]!.byteLength).toBeLessThan(40_000);
      }
    },
  );

  it.each(models)(
    '%s saying "aa" shows an upper and a lower row of teeth, with gaps between the teeth, either side of the dark mouth',
    async (id, model) => {
      const gltf = await parse(model);
      const face = meshes(gltf.scene).find((m) => m.name === 'Face')!;
      const pos = face.geometry.attributes.position!;
      const col = face.geometry.attributes.color!;
      const aa = face.geometry.morphAttributes.position![face.morphTargetDictionary!.viseme_aa!]!;
      const mouth = { x: 0, y: 0, n: 0 };
      const teeth: { x: number; y: number }[] = [];
      for (let i = 0; i < pos.count; i++) {
        const [r, g, b] = [col.getX(i), col.getY(i), col.getZ(i)];
        const x = pos.getX(i) + aa.getX(i),
          y = pos.getY(i) + aa.getY(i);
        // The inside of the mouth: nearly black and red; teeth: light and not skin-coloured.
        if (Math.max(r, g, b) < 0.09 && r > 2 * g && pos.getZ(i) > 0.05 && pos.getY(i) < -0.045)
          Object.assign(mouth, { x: mouth.x + x, y: mouth.y + y, n: mouth.n + 1 });
        if (Math.min(r, g, b) > 0.5 && b > 0.7 * r) teeth.push({ x, y });
      }
      expect(mouth.n, id).toBeGreaterThan(10);
      const cy = mouth.y / mouth.n;
      const upper = teeth.filter((t) => t.y > cy),
        lower = teeth.filter((t) => t.y < cy);
      expect(upper.length, `${id}: upper teeth`).toBeGreaterThan(20);
      expect(lower.length, `${id}: lower teeth`).toBeGreaterThan(10);
      // Gaps between the upper teeth: across the mouth, columns with no tooth colour between teeth.
      const xs = [...new Set(upper.map((t) => Math.round(t.x * 1e4)))].sort((a, b) => a - b);
      const steps = xs.slice(1).map((x, i) => x - xs[i]!);
      const column = [...steps].sort((a, b) => a - b)[steps.length >> 1]!;
      expect(steps.filter((d) => d > 1.5 * column).length, `${id}: gaps between the upper teeth`).toBeGreaterThanOrEqual(3);
    },
  );

  it.each(characters.map((a) => [a.id, a.model, a.lightModel ?? ''] as const))(
    '%s has a light model: the same parts, a face of about half the triangles or fewer whose visemes move the same mouth',
    async (id, model, lightModel) => {
      const [full, light] = await Promise.all([parse(model), parse(lightModel)]);
      const parts = (g: GLTF) => meshes(g.scene).map((m) => `${m.name} ${m.name === 'Face' ? '' : triangles(m)}`);
      expect(parts(light)).toEqual(parts(full));
      const [a, b] = [full, light].map((g) => meshes(g.scene).find((m) => m.name === 'Face')!);
      expect(triangles(b!), id).toBeLessThan(triangles(a!) * 0.55);
      expect(b!.morphTargetDictionary).toEqual(a!.morphTargetDictionary);
      // Each viseme moves the same region (its moved vertices' box) as far (its largest move).
      const moved = (m: Mesh, name: string) => {
        const t = m.geometry.morphAttributes.position![m.morphTargetDictionary![name]!]!;
        const pos = m.geometry.attributes.position!;
        const box = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity, most: 0 };
        for (let i = 0; i < t.count; i++) {
          const d = Math.hypot(t.getX(i), t.getY(i), t.getZ(i));
          box.most = Math.max(box.most, d);
          if (d < 1e-4) continue;
          box.x0 = Math.min(box.x0, pos.getX(i));
          box.x1 = Math.max(box.x1, pos.getX(i));
          box.y0 = Math.min(box.y0, pos.getY(i));
          box.y1 = Math.max(box.y1, pos.getY(i));
        }
        return box;
      };
      for (const v of VISEMES.filter((x) => x !== 'sil')) {
        const [ma, mb] = [moved(a!, `viseme_${v}`), moved(b!, `viseme_${v}`)];
        expect(mb.most, `${id} ${v}`).toBeCloseTo(ma.most, 3);
        for (const k of ['x0', 'x1', 'y0', 'y1'] as const) expect(Math.abs(mb[k] - ma[k]), `${id} ${v} ${k}`).toBeLessThan(0.006);
      }
    },
  );

  it('stores every character meshopt-compressed, well under 2 MB', () => {
    for (const a of characters) {
      const json = gltfJson(a.model);
      expect(json.extensionsRequired, a.id).toContain('EXT_meshopt_compression');
      expect(readFileSync(join(CATALOGUE, a.model)).length, a.id).toBeLessThan(2_000_000);
    }
  });

  it('gives full-body characters legs', async () => {
    for (const a of characters.filter((c) => c.type === '3d')) {
      const gltf = await parse(a.model);
      const names: string[] = [];
      gltf.scene.traverse((o) => names.push(o.name));
      expect(names).toEqual(expect.arrayContaining(['LeftUpperLeg', 'RightLowerLeg', 'LeftFoot']));
    }
  });
});

describe('catalogue GLB environments', () => {
  it.each(index.environments.map((e) => [e.id, e.model] as const))('%s loads with geometry', async (_id, model) => {
    const gltf = await parse(model);
    const all = meshes(gltf.scene);
    expect(all.length).toBeGreaterThan(0);
    expect(all.reduce((n, m) => n + m.geometry.attributes.position!.count, 0)).toBeGreaterThan(1000);
  });
});
