// Test models for "bring your own 3D avatar" (decision 123), made from a catalogue character of
// our own generator: the same geometry re-labelled in the conventions customers' files use
// (Ready Player Me's Oculus visemes, ARKit blend shapes with mixamo bones, VRoid's VRM 0.x and
// 1.0), one with no mouth shapes, and hostile variants. Only the JSON chunk is rewritten; the
// binary chunk stays as generated. No third-party model is involved or committed.
//   node --import tsx scripts/catalogue/own-models.ts <catalogue .glb> <out dir>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a glTF document being rewritten

export function splitGlb(glb: Buffer): { json: Json; bin: Buffer } {
  const length = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + length).toString('utf8')) as Json;
  const at = 20 + length;
  const binLength = glb.readUInt32LE(at);
  return { json, bin: Buffer.from(glb.subarray(at + 8, at + 8 + binLength)) };
}

/** A GLB from its JSON and binary chunk (the JSON padded with spaces, as the format asks). */
export function joinGlb(json: Json, bin: Buffer, declaredJsonLength?: number): Buffer {
  let text = Buffer.from(JSON.stringify(json), 'utf8');
  if (text.length % 4) text = Buffer.concat([text, Buffer.alloc(4 - (text.length % 4), 0x20)]);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'latin1');
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + text.length + 8 + bin.length, 8);
  const jsonHead = Buffer.alloc(8);
  jsonHead.writeUInt32LE(declaredJsonLength ?? text.length, 0);
  jsonHead.writeUInt32LE(0x4e4f534a, 4);
  const binHead = Buffer.alloc(8);
  binHead.writeUInt32LE(bin.length, 0);
  binHead.writeUInt32LE(0x004e4942, 4);
  return Buffer.concat([header, jsonHead, text, binHead, bin]);
}

const faceMesh = (json: Json): Json => json.meshes[json.nodes.find((n: Json) => n.name === 'Face').mesh];
const nodeIndex = (json: Json, name: string): number => json.nodes.findIndex((n: Json) => n.name === name);

function renameTargets(json: Json, rename: (name: string) => string): void {
  for (const m of json.meshes) if (m.extras?.targetNames) m.extras.targetNames = m.extras.targetNames.map(rename);
}
function renameNodes(json: Json, names: Record<string, string>): void {
  for (const n of json.nodes) if (names[n.name]) n.name = names[n.name];
}

const MIXAMO: Record<string, string> = {
  Hips: 'mixamorig:Hips',
  Spine: 'mixamorig:Spine',
  Chest: 'mixamorig:Spine2',
  Neck: 'mixamorig:Neck',
  Head: 'mixamorig:Head',
  LeftShoulder: 'mixamorig:LeftShoulder',
  RightShoulder: 'mixamorig:RightShoulder',
  LeftUpperArm: 'mixamorig:LeftArm',
  RightUpperArm: 'mixamorig:RightArm',
  LeftLowerArm: 'mixamorig:LeftForeArm',
  RightLowerArm: 'mixamorig:RightForeArm',
  Face: 'FaceMesh',
};
const VROID: Record<string, string> = {
  Hips: 'J_Bip_C_Hips',
  Spine: 'J_Bip_C_Spine',
  Chest: 'J_Bip_C_Chest',
  Neck: 'J_Bip_C_Neck',
  Head: 'J_Bip_C_Head',
  LeftShoulder: 'J_Bip_L_Shoulder',
  RightShoulder: 'J_Bip_R_Shoulder',
  LeftUpperArm: 'J_Bip_L_UpperArm',
  RightUpperArm: 'J_Bip_R_UpperArm',
  LeftLowerArm: 'J_Bip_L_LowerArm',
  RightLowerArm: 'J_Bip_R_LowerArm',
  Face: 'Face_baked',
};
/** Our viseme targets under ARKit names (Apple's raw `_L` for the smile, Left/Right elsewhere). */
const ARKIT: Record<string, string> = {
  viseme_aa: 'jawOpen',
  viseme_O: 'mouthFunnel',
  viseme_U: 'mouthPucker',
  viseme_PP: 'mouthClose',
  viseme_E: 'mouthStretchLeft',
  viseme_I: 'mouthSmile_L',
  blink: 'eyeBlinkLeft',
};
/** VRoid's own morph names for the vowels and the blink. */
const VROID_TARGETS: Record<string, string> = {
  viseme_aa: 'Fcl_MTH_A',
  viseme_I: 'Fcl_MTH_I',
  viseme_U: 'Fcl_MTH_U',
  viseme_E: 'Fcl_MTH_E',
  viseme_O: 'Fcl_MTH_O',
  blink: 'Fcl_EYE_Close',
  smile: 'Fcl_ALL_Joy',
};
const HUMAN: Record<string, string> = {
  Hips: 'hips',
  Spine: 'spine',
  Chest: 'chest',
  Neck: 'neck',
  Head: 'head',
  LeftUpperArm: 'leftUpperArm',
  RightUpperArm: 'rightUpperArm',
  LeftLowerArm: 'leftLowerArm',
  RightLowerArm: 'rightLowerArm',
  LeftHand: 'leftHand',
  RightHand: 'rightHand',
};

function vrm(json: Json, version: 0 | 1): void {
  const face = nodeIndex(json, 'Face');
  const faceMeshIndex = json.nodes[face].mesh as number;
  const target = (name: string) => (faceMesh(json).extras.targetNames as string[]).indexOf(name);
  const human = Object.entries(HUMAN).map(([ours, bone]) => ({ bone, node: nodeIndex(json, ours) }));
  const presets = { aa: 'viseme_aa', ih: 'viseme_I', ou: 'viseme_U', ee: 'viseme_E', oh: 'viseme_O', blink: 'blink', happy: 'smile' };
  const v0Names: Record<string, string> = { aa: 'a', ih: 'i', ou: 'u', ee: 'e', oh: 'o', blink: 'blink', happy: 'joy' };
  if (version === 1) {
    json.extensions = {
      ...json.extensions,
      VRMC_vrm: {
        specVersion: '1.0',
        meta: { name: 'Parla test model', authors: ['Parla catalogue generator'], licenseUrl: 'https://vrm.dev/licenses/1.0/' },
        humanoid: { humanBones: Object.fromEntries(human.map((h) => [h.bone, { node: h.node }])) },
        expressions: {
          preset: Object.fromEntries(
            Object.entries(presets).map(([p, t]) => [p, { morphTargetBinds: [{ node: face, index: target(t), weight: 1 }] }]),
          ),
        },
      },
    };
    json.extensionsUsed = [...json.extensionsUsed, 'VRMC_vrm'];
  } else {
    json.extensions = {
      ...json.extensions,
      VRM: {
        specVersion: '0.0',
        meta: { title: 'Parla test model', author: 'Parla catalogue generator' },
        humanoid: { humanBones: human.map((h) => ({ bone: h.bone, node: h.node })) },
        blendShapeMaster: {
          blendShapeGroups: Object.entries(presets).map(([p, t]) => ({
            name: v0Names[p]!.toUpperCase(),
            presetName: v0Names[p],
            binds: [{ mesh: faceMeshIndex, index: target(t), weight: 100 }],
          })),
        },
      },
    };
    json.extensionsUsed = [...json.extensionsUsed, 'VRM'];
    // VRM 0.x characters face −Z: turn the scene's roots round, as a VRoid export would be.
    for (const root of json.scenes[json.scene ?? 0].nodes) json.nodes[root].rotation = [0, 1, 0, 0];
  }
  renameTargets(json, (n) => VROID_TARGETS[n] ?? `Fcl_HA_${n}`);
  renameNodes(json, VROID);
}

export type OwnModelName = 'oculus' | 'arkit' | 'vrm0' | 'vrm1' | 'mute';

/** The talking variants and the mute one, from one catalogue character. */
export function ownModelVariants(catalogueGlb: Buffer): Record<OwnModelName, Buffer> {
  const variant = (edit: (json: Json) => void) => {
    const { json, bin } = splitGlb(catalogueGlb);
    edit(json);
    return joinGlb(json, bin);
  };
  return {
    // Ready Player Me / Avaturn: the Oculus names (ours already), the face under RPM's mesh name.
    oculus: variant((j) => renameNodes(j, { Face: 'Wolf3D_Head' })),
    arkit: variant((j) => {
      renameTargets(j, (n) => ARKIT[n] ?? `unusedShape_${n}`);
      renameNodes(j, MIXAMO);
    }),
    vrm0: variant((j) => vrm(j, 0)),
    vrm1: variant((j) => vrm(j, 1)),
    mute: variant((j) => renameTargets(j, (_n) => `shape_${_n.length}`)),
  };
}

/** Hostile files, each breaking one rule of decision 123 (named after the rule). */
export function hostileModels(catalogueGlb: Buffer): Record<string, Buffer> {
  const base = ownModelVariants(catalogueGlb).oculus;
  const edit = (fn: (json: Json, bin: Buffer) => void, declaredJsonLength?: number) => {
    const { json, bin } = splitGlb(base);
    fn(json, bin);
    return joinGlb(json, bin, declaredJsonLength);
  };
  const png = (json: Json, bin: Buffer) =>
    bin.indexOf(Buffer.from([0x89, 0x50, 0x4e, 0x47]), json.bufferViews[json.images[0].bufferView].byteOffset ?? 0);
  return {
    // 1e9 zeroed vertices: an accessor without a buffer view, allocated by the loader.
    accessorCountBomb: edit((j) => j.accessors.push({ componentType: 5126, type: 'VEC3', count: 1_000_000_000 })),
    accessorPastView: edit((j) => {
      const a = j.accessors.find((x: Json) => x.bufferView !== undefined);
      a.count *= 50;
    }),
    viewPastBuffer: edit((j) => (j.bufferViews[0].byteLength = 1 << 30)),
    meshoptSizeBomb: edit((j) => {
      const v = j.bufferViews.find((x: Json) => x.extensions?.EXT_meshopt_compression);
      // 4 M elements of 252 bytes: 1 GB for the browser to allocate, from a few compressed bytes.
      v.extensions.EXT_meshopt_compression.count = 4_000_000;
      v.extensions.EXT_meshopt_compression.byteStride = 252;
      v.byteLength = v.extensions.EXT_meshopt_compression.count * v.extensions.EXT_meshopt_compression.byteStride;
    }),
    // A PNG whose header says 16384 × 16384 (1 GB once decoded).
    textureBomb: edit((j, bin) => {
      const at = png(j, bin);
      bin.writeUInt32BE(16384, at + 16);
      bin.writeUInt32BE(16384, at + 20);
    }),
    jsonLengthLie: edit(() => undefined, 0x7fffffff),
    nodeLoop: edit((j) => (j.nodes[nodeIndex(j, 'Head')].children = [nodeIndex(j, 'Hips')])),
    outsideFile: edit((j) => (j.images[0] = { uri: 'file:///etc/passwd', mimeType: 'image/png' })),
    dracoRequired: edit((j) => j.extensionsRequired.push('KHR_draco_mesh_compression')),
  };
}

const [source, outDir] = process.argv.slice(2);
if (source && outDir && import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(outDir, { recursive: true });
  const glb = readFileSync(source);
  for (const [name, file] of Object.entries({ ...ownModelVariants(glb), ...hostileModels(glb) }))
    writeFileSync(join(outDir, `${name}.${name.startsWith('vrm') ? 'vrm' : 'glb'}`), file);
}
