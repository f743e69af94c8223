// Meshopt compression of vertex and index data (EXT_meshopt_compression), with the encoder of
// the meshoptimizer package. three's GLTFLoader decodes it with MeshoptDecoder, which ships in
// three (its WebAssembly is inlined: the player bundles it, nothing is downloaded at run time).
import { MeshoptEncoder } from 'meshoptimizer';
import type { MaterialSpec, MorphTarget, SkinAttributes } from './glb';
import type { MeshData } from './mesh';

await MeshoptEncoder.ready;

export type MeshoptMode = 'ATTRIBUTES' | 'TRIANGLES';

/** `data` holds `count` elements of `size` bytes (a multiple of 4 for attributes). */
export function meshoptEncode(data: Buffer, count: number, size: number, mode: MeshoptMode): Buffer {
  const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(MeshoptEncoder.encodeGltfBuffer(src, count, size, mode));
}

/**
 * A vertex order that suits the GPU's cache and compresses well; rewrites `indices` in place.
 * Returns, for each old vertex, its new place, and how many vertices are used.
 */
export function reorder(indices: Uint32Array): [Uint32Array, number] {
  return MeshoptEncoder.reorderMesh(indices, true, true);
}

/** Per-vertex arrays of a primitive: `stride` numbers per vertex. */
export interface VertexArrays {
  [name: string]: { data: ArrayLike<number>; stride: number };
}

/**
 * Puts a primitive's vertices in cache order (better compression, faster drawing): rewrites
 * `indices` in place and returns each per-vertex array in the new order.
 */
export function reorderVertices(indices: number[], arrays: VertexArrays): Record<string, number[]> {
  const idx = Uint32Array.from(indices);
  const [remap, unique] = reorder(idx);
  for (let i = 0; i < idx.length; i++) indices[i] = idx[i]!;
  const out: Record<string, number[]> = {};
  for (const [name, { data, stride }] of Object.entries(arrays)) {
    const next = new Array<number>(unique * stride).fill(0);
    for (let v = 0; v < remap.length; v++) {
      const to = remap[v]!;
      if (to === 0xffffffff) continue;
      for (let k = 0; k < stride; k++) next[to * stride + k] = data[v * stride + k]!;
    }
    out[name] = next;
  }
  return out;
}

export type Primitive = { data: MeshData; material: MaterialSpec; targets?: MorphTarget[]; skin?: SkinAttributes };

/** The primitive with its vertices in cache order (meshopt compresses that far better). */
export function inCacheOrder(p: Primitive): Primitive {
  const d = p.data;
  const indices = [...d.indices];
  const arrays: Record<string, { data: ArrayLike<number>; stride: number }> = {
    positions: { data: d.positions, stride: 3 },
    normals: { data: d.normals, stride: 3 },
    colors: { data: d.colors, stride: 3 },
  };
  if (d.uvs) arrays.uvs = { data: d.uvs, stride: 2 };
  if (p.skin) Object.assign(arrays, { joints: { data: p.skin.joints, stride: 4 }, weights: { data: p.skin.weights, stride: 4 } });
  p.targets?.forEach((t, i) => (arrays[`t${i}`] = { data: t.deltas, stride: 3 }));
  const r = reorderVertices(indices, arrays);
  return {
    data: { positions: r.positions!, normals: r.normals!, colors: r.colors!, indices, ...(d.uvs ? { uvs: r.uvs! } : {}) },
    material: p.material,
    ...(p.targets ? { targets: p.targets.map((t, i) => ({ name: t.name, deltas: Float32Array.from(r[`t${i}`]!) })) } : {}),
    ...(p.skin ? { skin: { joints: Uint8Array.from(r.joints!), weights: Float32Array.from(r.weights!) } } : {}),
  };
}
