// A small glTF 2.0 binary writer: nodes, meshes with vertex colours, morph targets, skins and
// small textures. Vertex and index data are meshopt-compressed (EXT_meshopt_compression, decoded
// by three's bundled MeshoptDecoder); normals, colours and morph deltas are quantised
// (KHR_mesh_quantization). Both extensions are read by three.js, Babylon.js and glTF-Transform.
import type { MeshData } from './mesh';
import { inCacheOrder, meshoptEncode, type MeshoptMode } from './meshopt';

const FLOAT = 5126,
  USHORT = 5123,
  UINT = 5125,
  UBYTE = 5121,
  BYTE = 5120,
  SHORT = 5122;
const ARRAY_BUFFER = 34962,
  ELEMENT_ARRAY_BUFFER = 34963;

export interface MaterialSpec {
  name: string;
  roughness: number;
  metallic?: number;
  doubleSided?: boolean;
  /** Light the material gives off itself (catch-lights). */
  emissive?: [number, number, number];
  /** A texture (from `GlbBuilder.texture`) multiplied with the vertex colours; needs `uvs`. */
  texture?: { index: number; repeat?: [number, number] };
  /** A tangent-space normal map (from `GlbBuilder.texture`), on the same coordinates as `texture`. */
  normalTexture?: { index: number; repeat?: [number, number]; scale?: number };
  /** Alpha from the texture, cut at 0.5 (hair-like brow strokes). */
  mask?: boolean;
}

export interface MorphTarget {
  name: string;
  /** Position deltas, three per vertex (zeros are stored sparsely). */
  deltas: Float32Array;
}

export interface SkinAttributes {
  /** Four joint indices (into the skin's joint list) and four weights per vertex. */
  joints: Uint8Array;
  weights: Float32Array;
}

interface GltfJson {
  asset: { version: string; generator: string };
  scene: number;
  scenes: { name: string; nodes: number[] }[];
  nodes: Record<string, unknown>[];
  meshes: Record<string, unknown>[];
  materials: Record<string, unknown>[];
  accessors: Record<string, unknown>[];
  bufferViews: Record<string, unknown>[];
  buffers: { byteLength: number }[];
  skins?: Record<string, unknown>[];
  images?: Record<string, unknown>[];
  samplers?: Record<string, unknown>[];
  textures?: Record<string, unknown>[];
  extensionsUsed: string[];
  extensionsRequired: string[];
}

/** Morph deltas are stored as normalized shorts: ±1 m at 0.03 mm steps. */
const q16 = (v: number) => Math.max(-32767, Math.min(32767, Math.round(v * 32767)));
const dq16 = (v: number) => q16(v) / 32767;

/** Normals as signed bytes, padded to 4 bytes per vertex (vertex attributes align to 4). */
function packNormals(n: number[]): Int8Array {
  const out = new Int8Array((n.length / 3) * 4);
  for (let i = 0; i < n.length / 3; i++) {
    const x = n[i * 3]!,
      y = n[i * 3 + 1]!,
      z = n[i * 3 + 2]!;
    const l = Math.hypot(x, y, z) || 1;
    out[i * 4] = Math.round((x / l) * 127);
    out[i * 4 + 1] = Math.round((y / l) * 127);
    out[i * 4 + 2] = Math.round((z / l) * 127);
  }
  return out;
}

export class GlbBuilder {
  private chunks: Buffer[] = [];
  private length = 0;
  readonly json: GltfJson = {
    asset: { version: '2.0', generator: 'parla scripts/catalogue' },
    scene: 0,
    scenes: [{ name: 'Scene', nodes: [] }],
    nodes: [],
    meshes: [],
    materials: [],
    accessors: [],
    bufferViews: [],
    buffers: [{ byteLength: 0 }],
    // Normals as bytes and morph deltas as shorts: half the size, read by three.js and every
    // loader that implements this Khronos extension.
    extensionsUsed: ['KHR_mesh_quantization'],
    extensionsRequired: ['KHR_mesh_quantization'],
  };
  private materialIndex = new Map<string, number>();
  /** Bytes of the uncompressed data (the fallback buffer no one downloads). */
  private fallbackLength = 0;

  /** A meshopt-compressed buffer view of `count` elements of `size` bytes. */
  private packed(data: Buffer, count: number, size: number, mode: MeshoptMode, target: number): number {
    const enc = meshoptEncode(data, count, size, mode);
    const at = this.view(enc);
    const view = this.json.bufferViews[at]!;
    const byteOffset = this.fallbackLength;
    this.fallbackLength += Math.ceil(data.length / 4) * 4;
    this.json.bufferViews[at] = {
      buffer: 1,
      byteOffset,
      byteLength: data.length,
      target,
      ...(mode === 'ATTRIBUTES' ? { byteStride: size } : {}),
      extensions: {
        EXT_meshopt_compression: { buffer: 0, byteOffset: view.byteOffset, byteLength: enc.length, byteStride: size, count, mode },
      },
    };
    return at;
  }

  private attribute(data: Buffer, count: number, size: number): number {
    return this.packed(data, count, size, 'ATTRIBUTES', ARRAY_BUFFER);
  }

  private view(data: Buffer, target?: number, byteStride?: number): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) {
      this.chunks.push(Buffer.alloc(pad));
      this.length += pad;
    }
    this.json.bufferViews.push({
      buffer: 0,
      byteOffset: this.length,
      byteLength: data.length,
      ...(target ? { target } : {}),
      ...(byteStride ? { byteStride } : {}),
    });
    this.chunks.push(data);
    this.length += data.length;
    return this.json.bufferViews.length - 1;
  }

  private accessor(a: Record<string, unknown>): number {
    this.json.accessors.push(a);
    return this.json.accessors.length - 1;
  }

  private vec3(values: ArrayLike<number>): number {
    const f = Float32Array.from(values as ArrayLike<number>);
    const min = [Infinity, Infinity, Infinity],
      max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < f.length; i++) {
      min[i % 3] = Math.min(min[i % 3]!, f[i]!);
      max[i % 3] = Math.max(max[i % 3]!, f[i]!);
    }
    const bv = this.attribute(Buffer.from(f.buffer), f.length / 3, 12);
    return this.accessor({ bufferView: bv, componentType: FLOAT, count: f.length / 3, type: 'VEC3', min, max });
  }

  /** Morph deltas as normalized shorts, padded to 8 bytes per vertex (zeros compress to nothing). */
  private morphTarget(t: MorphTarget, count: number): number {
    const min = [0, 0, 0],
      max = [0, 0, 0];
    const vals = new Int16Array(count * 4);
    let any = false;
    for (let v = 0; v < count; v++)
      for (let c = 0; c < 3; c++) {
        const q = q16(t.deltas[v * 3 + c]!);
        if (q === 0) continue;
        any = true;
        vals[v * 4 + c] = q;
        min[c] = Math.min(min[c]!, dq16(t.deltas[v * 3 + c]!));
        max[c] = Math.max(max[c]!, dq16(t.deltas[v * 3 + c]!));
      }
    // An all-zero target (viseme_sil) needs no data: an accessor without a buffer view is zeros.
    if (!any) return this.accessor({ componentType: SHORT, normalized: true, count, type: 'VEC3', min, max });
    return this.accessor({
      bufferView: this.attribute(Buffer.from(vals.buffer), count, 8),
      componentType: SHORT,
      normalized: true,
      count,
      type: 'VEC3',
      min,
      max,
    });
  }

  material(spec: MaterialSpec): number {
    const known = this.materialIndex.get(spec.name);
    if (known !== undefined) return known;
    const tex = spec.texture;
    // Texture coordinates are stored as normalized shorts (0..1); tiling is a texture transform.
    const baseColorTexture = tex
      ? { index: tex.index, ...(tex.repeat ? { extensions: { KHR_texture_transform: { scale: tex.repeat } } } : {}) }
      : undefined;
    if (tex?.repeat && !this.json.extensionsUsed.includes('KHR_texture_transform')) this.json.extensionsUsed.push('KHR_texture_transform');
    this.json.materials.push({
      name: spec.name,
      pbrMetallicRoughness: {
        baseColorFactor: [1, 1, 1, 1],
        metallicFactor: spec.metallic ?? 0,
        roughnessFactor: spec.roughness,
        ...(baseColorTexture ? { baseColorTexture } : {}),
      },
      ...(spec.normalTexture
        ? {
            normalTexture: {
              index: spec.normalTexture.index,
              scale: spec.normalTexture.scale ?? 1,
              ...(spec.normalTexture.repeat ? { extensions: { KHR_texture_transform: { scale: spec.normalTexture.repeat } } } : {}),
            },
          }
        : {}),
      ...(spec.doubleSided ? { doubleSided: true } : {}),
      ...(spec.emissive ? { emissiveFactor: spec.emissive } : {}),
      ...(spec.mask ? { alphaMode: 'MASK', alphaCutoff: 0.5 } : {}),
    });
    this.materialIndex.set(spec.name, this.json.materials.length - 1);
    return this.json.materials.length - 1;
  }

  /** A PNG image as a texture (repeating, mipmapped); returns its index for `MaterialSpec.texture`. */
  texture(png: Buffer): number {
    this.json.images ??= [];
    this.json.samplers ??= [{ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497 }];
    this.json.textures ??= [];
    this.json.images.push({ bufferView: this.view(png), mimeType: 'image/png' });
    this.json.textures.push({ sampler: 0, source: this.json.images.length - 1 });
    return this.json.textures.length - 1;
  }

  /** A mesh of one or more primitives (one per material); morph targets apply to all of them. */
  mesh(name: string, primitives: { data: MeshData; material: MaterialSpec; targets?: MorphTarget[]; skin?: SkinAttributes }[]): number {
    const prims = primitives.map((prim) => {
      const { data, material, targets, skin } = inCacheOrder(prim);
      const count = data.positions.length / 3;
      const colors = new Uint8Array(count * 4);
      for (let i = 0; i < count; i++) {
        for (let c = 0; c < 3; c++) colors[i * 4 + c] = Math.round(Math.max(0, Math.min(1, data.colors[i * 3 + c]!)) * 255);
        colors[i * 4 + 3] = 255;
      }
      const attributes: Record<string, number> = {
        POSITION: this.vec3(data.positions),
        NORMAL: this.accessor({
          bufferView: this.attribute(Buffer.from(packNormals(data.normals).buffer), count, 4),
          componentType: BYTE,
          normalized: true,
          count,
          type: 'VEC3',
        }),
        COLOR_0: this.accessor({
          bufferView: this.attribute(Buffer.from(colors.buffer), count, 4),
          componentType: UBYTE,
          normalized: true,
          count,
          type: 'VEC4',
        }),
      };
      if (data.uvs) {
        const uv = new Uint16Array(count * 2);
        for (let i = 0; i < count * 2; i++) uv[i] = Math.round(Math.max(0, Math.min(1, data.uvs[i]!)) * 65535);
        attributes.TEXCOORD_0 = this.accessor({
          bufferView: this.attribute(Buffer.from(uv.buffer), count, 4),
          componentType: USHORT,
          normalized: true,
          count,
          type: 'VEC2',
        });
      }
      if (skin) {
        attributes.JOINTS_0 = this.accessor({
          bufferView: this.attribute(Buffer.from(skin.joints.buffer, skin.joints.byteOffset, skin.joints.byteLength), count, 4),
          componentType: UBYTE,
          count,
          type: 'VEC4',
        });
        const w = new Uint8Array(count * 4);
        for (let i = 0; i < count; i++) {
          const ws = [0, 1, 2, 3].map((k) => skin.weights[i * 4 + k]!);
          const sum = ws.reduce((a, b) => a + b, 0) || 1;
          const q = ws.map((x) => Math.round((x / sum) * 255));
          q[q.indexOf(Math.max(...q))]! += 255 - q.reduce((a, b) => a + b, 0);
          w.set(q, i * 4);
        }
        attributes.WEIGHTS_0 = this.accessor({
          bufferView: this.attribute(Buffer.from(w.buffer), count, 4),
          componentType: UBYTE,
          normalized: true,
          count,
          type: 'VEC4',
        });
      }
      const wide = count > 65535;
      const ib = wide ? Buffer.from(Uint32Array.from(data.indices).buffer) : Buffer.from(Uint16Array.from(data.indices).buffer);
      const indices = this.accessor({
        bufferView: this.packed(ib, data.indices.length, wide ? 4 : 2, 'TRIANGLES', ELEMENT_ARRAY_BUFFER),
        componentType: wide ? UINT : USHORT,
        count: data.indices.length,
        type: 'SCALAR',
      });
      return {
        attributes,
        indices,
        material: this.material(material),
        ...(targets?.length ? { targets: targets.map((t) => ({ POSITION: this.morphTarget(t, count) })) } : {}),
      };
    });
    const targetNames = primitives[0]?.targets?.map((t) => t.name);
    this.json.meshes.push({
      name,
      primitives: prims,
      ...(targetNames ? { extras: { targetNames }, weights: targetNames.map(() => 0) } : {}),
    });
    return this.json.meshes.length - 1;
  }

  node(n: {
    name: string;
    translation?: number[];
    rotation?: number[];
    scale?: number[];
    mesh?: number;
    skin?: number;
    children?: number[];
  }): number {
    this.json.nodes.push(n);
    return this.json.nodes.length - 1;
  }

  addChild(parent: number, child: number): void {
    const p = this.json.nodes[parent]!;
    p.children = [...((p.children as number[] | undefined) ?? []), child];
  }

  root(node: number): void {
    this.json.scenes[0]!.nodes.push(node);
  }

  /** A skin over joint nodes whose inverse bind matrices are pure translations (no rotation at rest). */
  skin(joints: number[], worldPositions: number[][], skeleton: number): number {
    const m = new Float32Array(joints.length * 16);
    worldPositions.forEach((p, i) => {
      m.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -p[0]!, -p[1]!, -p[2]!, 1], i * 16);
    });
    const ibm = this.accessor({ bufferView: this.view(Buffer.from(m.buffer)), componentType: FLOAT, count: joints.length, type: 'MAT4' });
    this.json.skins ??= [];
    this.json.skins.push({ joints, inverseBindMatrices: ibm, skeleton });
    return this.json.skins.length - 1;
  }

  toBuffer(): Buffer {
    const bin = Buffer.concat(this.chunks);
    const binPadded = Buffer.concat([bin, Buffer.alloc((4 - (bin.length % 4)) % 4)]);
    this.json.buffers[0]!.byteLength = binPadded.length;
    if (this.fallbackLength) {
      // The uncompressed views live in a buffer that is never stored: only the compressed copy is.
      this.json.buffers[1] = { byteLength: this.fallbackLength, extensions: { EXT_meshopt_compression: { fallback: true } } } as {
        byteLength: number;
      };
      for (const list of [this.json.extensionsUsed, this.json.extensionsRequired])
        if (!list.includes('EXT_meshopt_compression')) list.push('EXT_meshopt_compression');
    }
    let jsonBuf = Buffer.from(JSON.stringify(this.json), 'utf8');
    jsonBuf = Buffer.concat([jsonBuf, Buffer.alloc((4 - (jsonBuf.length % 4)) % 4, 0x20)]);
    const header = Buffer.alloc(12);
    header.writeUInt32LE(0x46546c67, 0);
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(12 + 8 + jsonBuf.length + 8 + binPadded.length, 8);
    const jh = Buffer.alloc(8);
    jh.writeUInt32LE(jsonBuf.length, 0);
    jh.writeUInt32LE(0x4e4f534a, 4);
    const bh = Buffer.alloc(8);
    bh.writeUInt32LE(binPadded.length, 0);
    bh.writeUInt32LE(0x004e4942, 4);
    return Buffer.concat([header, jh, jsonBuf, bh, binPadded]);
  }
}
