// Meshopt compression of vertex and index data (EXT_meshopt_compression), with the encoder of
// the meshoptimizer package. three's GLTFLoader decodes it with MeshoptDecoder, which ships in
// three (its WebAssembly is inlined: the player bundles it, nothing is downloaded at run time).
import { MeshoptEncoder } from 'meshoptimizer';

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
