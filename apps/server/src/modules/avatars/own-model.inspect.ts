// Reads a customer's .glb / .vrm as hostile input (decision 123): every declared size is checked
// against the file and against caps before anything the size names is allocated, here or in
// the visitor's browser (three allocates what accessors and meshopt views declare). Runs in the
// model-check child (own-model.check.ts), never on the server's event loop. Only the JSON and
// the images' headers are read: the geometry is not decoded.
import { imageSize } from 'image-size';
import { glbHeaderProblem } from '@parla/shared/media-checks';
import { mouthShapes, OWN_MODEL_MESSAGES, poseBones, type GltfJson, type OwnModelRig } from '@parla/shared/own-model';

/** Caps, each with its reason. Real avatars (Ready Player Me, VRoid, Avaturn) sit well inside. */
export const OWN_MODEL_CAPS = {
  /** The JSON of a 100k-vertex VRM is ~300 KB; 4 MB is generous and bounds JSON.parse. */
  jsonBytes: 4 * 1024 * 1024,
  nodes: 4096,
  meshes: 1024,
  accessors: 16_384,
  bufferViews: 16_384,
  /** Per primitive: ARKit's 52 plus Oculus' 15 plus VRM's custom ones fit. */
  morphTargets: 256,
  /** Elements per accessor: 4 M vertices is far past any avatar. */
  elements: 4_000_000,
  /** Bytes the browser allocates for all accessors and decoded meshopt views together. */
  allocatedBytes: 256 * 1024 * 1024,
  images: 64,
  /** A texture side: 4096 px (a 16k × 16k PNG decodes to 1 GB). */
  textureSide: 4096,
  /** All textures' pixels together (16 textures of 2048² = 64 Mpx, 256 MB decoded). */
  texturePixels: 64 * 1024 * 1024,
} as const;

/** glTF extensions the player can load (three's GLTFLoader without Draco or KTX2 decoders). */
const SUPPORTED_REQUIRED = new Set([
  'KHR_mesh_quantization',
  'EXT_meshopt_compression',
  'KHR_texture_transform',
  'KHR_materials_unlit',
  'KHR_materials_emissive_strength',
  'EXT_texture_webp',
]);

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

export class ModelProblem extends Error {}
const refuse = (message: string): never => {
  throw new ModelProblem(message);
};

const isIndex = (v: unknown, length: number): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < length;
const isCount = (v: unknown, max: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
const list = <T>(v: unknown, max: number, what: string): T[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return refuse(`The model's ${what} are not a list.`);
  if (v.length > max) return refuse(`The model has ${v.length} ${what}; at most ${max} are accepted.`);
  return v as T[];
};

interface Chunks {
  json: GltfJson & Record<string, unknown>;
  bin: Buffer | null;
}

function chunks(buf: Buffer): Chunks {
  const header = glbHeaderProblem(buf.subarray(0, 12), buf.length);
  if (header) refuse(header);
  if (buf.length < 20) refuse('The model is truncated: it has no JSON chunk.');
  const jsonLength = buf.readUInt32LE(12);
  if (buf.readUInt32LE(16) !== 0x4e4f534a) refuse('The model is damaged: its first chunk is not JSON.');
  if (jsonLength > OWN_MODEL_CAPS.jsonBytes)
    refuse(`The model's JSON is ${jsonLength} bytes; at most ${OWN_MODEL_CAPS.jsonBytes} are accepted.`);
  if (20 + jsonLength > buf.length) refuse('The model is damaged: its JSON chunk runs past the end of the file.');
  let json: unknown;
  try {
    json = JSON.parse(buf.subarray(20, 20 + jsonLength).toString('utf8'));
  } catch {
    refuse('The model is damaged: its JSON cannot be read.');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) refuse('The model is damaged: its JSON is not an object.');
  let bin: Buffer | null = null;
  // Chunk lengths include their padding (glTF 2.0 §4.4.3): the binary chunk starts right after.
  const at = 20 + jsonLength;
  if (at + 8 <= buf.length) {
    const length = buf.readUInt32LE(at);
    if (buf.readUInt32LE(at + 4) !== 0x004e4942) refuse('The model is damaged: its second chunk is not binary data.');
    if (at + 8 + length > buf.length) refuse('The model is damaged: its binary chunk runs past the end of the file.');
    bin = buf.subarray(at + 8, at + 8 + length);
  }
  return { json: json as Chunks['json'], bin };
}

interface View {
  buffer: number;
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
  extensions?: { EXT_meshopt_compression?: { buffer: number; byteOffset?: number; byteLength: number; byteStride: number; count: number } };
}

/** Buffers, views and accessors: every range inside what contains it, every allocation capped. */
function checkData(json: Chunks['json'], bin: Buffer | null): void {
  const buffers = list<{ uri?: unknown; byteLength?: unknown; extensions?: Record<string, unknown> }>(json.buffers, 16, 'buffers');
  const sizes = buffers.map((b, i) => {
    if (b.uri !== undefined) refuse('The model must be self-contained: it refers to an outside file or data URI.');
    if (!isCount(b.byteLength, OWN_MODEL_CAPS.allocatedBytes)) refuse('The model is damaged: a buffer declares an impossible length.');
    const fallback = !!b.extensions?.EXT_meshopt_compression;
    if (i === 0 && !fallback && (!bin || (b.byteLength as number) > bin.length))
      refuse('The model is damaged: its buffer is longer than its binary chunk.');
    if (i > 0 && !fallback) refuse('The model must be self-contained: it has a buffer outside its binary chunk.');
    return { length: b.byteLength as number, fallback };
  });
  let allocated = 0;
  const views = list<View>(json.bufferViews, OWN_MODEL_CAPS.bufferViews, 'buffer views').map((v) => {
    const within = (buffer: unknown, offset: unknown, length: unknown) =>
      isIndex(buffer, sizes.length) &&
      isCount(offset ?? 0, 2 ** 32) &&
      isCount(length, 2 ** 32) &&
      ((offset as number | undefined) ?? 0) + (length as number) <= sizes[buffer]!.length;
    const mo = v.extensions?.EXT_meshopt_compression;
    if (mo) {
      if (!within(mo.buffer, mo.byteOffset, mo.byteLength) || sizes[mo.buffer]!.fallback)
        refuse('The model is damaged: a compressed buffer view lies outside its buffer.');
      if (!isCount(mo.count, OWN_MODEL_CAPS.elements) || !isCount(mo.byteStride, 256) || mo.count * mo.byteStride !== v.byteLength)
        refuse('The model is damaged: a compressed buffer view declares an impossible size.');
      allocated += v.byteLength;
    } else if (!within(v.buffer, v.byteOffset, v.byteLength) || sizes[v.buffer]!.fallback) {
      refuse('The model is damaged: a buffer view lies outside its buffer.');
    }
    if (v.byteStride !== undefined && !isCount(v.byteStride, 252)) refuse('The model is damaged: a buffer view has an impossible stride.');
    return v;
  });
  const tooMuch = () =>
    refuse(`The model's geometry needs more than ${OWN_MODEL_CAPS.allocatedBytes / 1024 / 1024} MB of memory once loaded.`);
  if (allocated > OWN_MODEL_CAPS.allocatedBytes) tooMuch();
  for (const a of list<Record<string, unknown>>(json.accessors, OWN_MODEL_CAPS.accessors, 'accessors')) {
    const component = COMPONENT_BYTES[a.componentType as number];
    const size = TYPE_SIZE[a.type as string];
    if (!component || !size) refuse('The model is damaged: an accessor has an unknown type.');
    if (!isCount(a.count, OWN_MODEL_CAPS.elements) || (a.count as number) < 1)
      refuse(`The model declares an accessor of ${String(a.count)} elements; at most ${OWN_MODEL_CAPS.elements} are accepted.`);
    const element = component! * size!;
    const count = a.count as number;
    allocated += count * element;
    if (a.bufferView !== undefined) {
      if (!isIndex(a.bufferView, views.length)) refuse('The model is damaged: an accessor names a missing buffer view.');
      const view = views[a.bufferView as number]!;
      const stride = view.byteStride ?? element;
      const offset = (a.byteOffset as number | undefined) ?? 0;
      if (!isCount(offset, 2 ** 32) || offset + (count - 1) * stride + element > view.byteLength)
        refuse('The model is damaged: an accessor reads past the end of its buffer view.');
    }
    const sparse = a.sparse as { count?: unknown; indices?: { bufferView?: unknown }; values?: { bufferView?: unknown } } | undefined;
    if (sparse) {
      if (
        !isCount(sparse.count, count) ||
        !isIndex(sparse.indices?.bufferView, views.length) ||
        !isIndex(sparse.values?.bufferView, views.length)
      )
        refuse('The model is damaged: a sparse accessor is out of bounds.');
      if ((sparse.count as number) * element > views[sparse.values!.bufferView as number]!.byteLength)
        refuse('The model is damaged: a sparse accessor reads past the end of its buffer view.');
    }
    if (allocated > OWN_MODEL_CAPS.allocatedBytes) tooMuch();
  }
  checkImages(json, views, bin);
}

/** Textures: inside the file, PNG/JPEG/WebP, their sizes read from the headers and capped. */
function checkImages(json: Chunks['json'], views: View[], bin: Buffer | null): void {
  let pixels = 0;
  for (const image of list<{ uri?: unknown; bufferView?: unknown }>(json.images, OWN_MODEL_CAPS.images, 'images')) {
    if (image.uri !== undefined) refuse('The model must be self-contained: a texture refers to an outside file or data URI.');
    if (!isIndex(image.bufferView, views.length) || !bin) refuse('The model is damaged: a texture names a missing buffer view.');
    const view = views[image.bufferView as number]!;
    if (view.extensions?.EXT_meshopt_compression) refuse('The model is damaged: a texture is stored compressed as geometry.');
    const start = view.byteOffset ?? 0;
    const head = bin!.subarray(start, start + Math.min(view.byteLength, 512 * 1024));
    let dims: { width?: number; height?: number; type?: string };
    try {
      dims = imageSize(head);
    } catch {
      return refuse('A texture of the model is not a PNG, JPEG or WebP image.');
    }
    if (!['png', 'jpg', 'webp'].includes(dims.type ?? '')) refuse('A texture of the model is not a PNG, JPEG or WebP image.');
    const { width = 0, height = 0 } = dims;
    if (width > OWN_MODEL_CAPS.textureSide || height > OWN_MODEL_CAPS.textureSide)
      refuse(
        `A texture of the model is ${width} × ${height} px; at most ${OWN_MODEL_CAPS.textureSide} × ${OWN_MODEL_CAPS.textureSide} px are accepted.`,
      );
    pixels += width * height;
    if (pixels > OWN_MODEL_CAPS.texturePixels)
      refuse('The model\u2019s textures together are too large: at most 64 megapixels are accepted.');
  }
}

/** Nodes form a forest (a cycle would hang any loader) and meshes have a bounded number of targets. */
function checkScene(json: Chunks['json']): void {
  const nodes = list<{ children?: unknown; mesh?: unknown; skin?: unknown }>(json.nodes, OWN_MODEL_CAPS.nodes, 'nodes');
  const meshes = list<{ primitives?: unknown }>(json.meshes, OWN_MODEL_CAPS.meshes, 'meshes');
  const skins = list<{ joints?: unknown }>(json.skins, 256, 'skins');
  const parent = new Array<number>(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    for (const c of list<unknown>(n.children, OWN_MODEL_CAPS.nodes, 'children')) {
      if (!isIndex(c, nodes.length) || parent[c] !== -1 || c === i)
        refuse('The model is damaged: its node tree has a loop or a node with two parents.');
      parent[c as number] = i;
    }
    if (n.mesh !== undefined && !isIndex(n.mesh, meshes.length)) refuse('The model is damaged: a node names a missing mesh.');
    if (n.skin !== undefined && !isIndex(n.skin, skins.length)) refuse('The model is damaged: a node names a missing skin.');
  });
  // Parents are unique, so a loop is a walk up that never reaches a root.
  nodes.forEach((_n, i) => {
    let at = i;
    for (let steps = 0; at !== -1; steps++) {
      if (steps > nodes.length) refuse('The model is damaged: its node tree has a loop or a node with two parents.');
      at = parent[at]!;
    }
  });
  for (const s of skins)
    for (const j of list<unknown>(s.joints, OWN_MODEL_CAPS.nodes, 'joints'))
      if (!isIndex(j, nodes.length)) refuse('The model is damaged: a skin names a missing joint.');
  for (const m of meshes)
    for (const p of list<{ targets?: unknown }>(m.primitives, 64, 'primitives'))
      list(p.targets, OWN_MODEL_CAPS.morphTargets, 'morph targets');
}

/** Reads an uploaded model: its rig (mouth shapes, blink, bones) or a ModelProblem saying what is wrong. */
export function inspectModel(buf: Buffer): OwnModelRig {
  const { json, bin } = chunks(buf);
  for (const ext of list<unknown>(json.extensionsRequired, 64, 'required extensions'))
    if (typeof ext !== 'string' || !SUPPORTED_REQUIRED.has(ext))
      refuse(
        `The model needs the glTF extension ${String(ext).slice(0, 60)}, which the player cannot load (export without Draco or KTX2 compression).`,
      );
  checkScene(json);
  checkData(json, bin);
  const nodes = json.nodes ?? [];
  if (!nodes.some((n) => n.skin !== undefined && n.mesh !== undefined)) refuse(OWN_MODEL_MESSAGES.noSkin);
  const bones = poseBones(json);
  if (bones.Head === undefined) refuse(OWN_MODEL_MESSAGES.noHead);
  const mouth = mouthShapes(json) ?? refuse(OWN_MODEL_MESSAGES.noMouth);
  const format = json.extensions?.VRMC_vrm ? 'vrm1' : json.extensions?.VRM ? 'vrm0' : 'glb';
  return {
    format,
    ...mouth,
    bones,
    headBone: String(nodes[bones.Head!]?.name ?? `node ${bones.Head}`).slice(0, 100),
    facesBack: format === 'vrm0',
  };
}
