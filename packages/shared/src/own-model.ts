// A customer's own 3D avatar (.glb or .vrm): how its mouth shapes, blink, smile and bones are
// found from the glTF JSON, and what the player is told about them (decision 123). Zod-free:
// the server's model-check child and the player both import it. Morph targets are named by
// glTF mesh index and target index (not by name: three renames nodes, and VRM expressions bind
// targets by index), so one description drives every naming convention alike.
import { VISEMES, type Viseme } from './visemes';

/** One morph target moved by a shape: glTF mesh `mesh`, its target `target`, by `weight` (0…1). */
export interface MorphDrive {
  mesh: number;
  target: number;
  weight: number;
}

export const MOUTH_CONVENTIONS = ['oculus', 'arkit', 'vrm'] as const;
export type MouthConvention = (typeof MOUTH_CONVENTIONS)[number];

export const CONVENTION_NAMES: Record<MouthConvention, string> = {
  oculus: 'Oculus visemes',
  arkit: 'ARKit blend shapes',
  vrm: 'VRM expressions',
};

/** The bones the player's idle motion turns (decision 103's names). */
export const POSE_BONES = [
  'Hips',
  'Spine',
  'Chest',
  'Neck',
  'Head',
  'LeftShoulder',
  'RightShoulder',
  'LeftUpperArm',
  'RightUpperArm',
  'LeftLowerArm',
  'RightLowerArm',
] as const;
export type PoseBone = (typeof POSE_BONES)[number];

/** What the server found in an uploaded model, stored with the avatar and sent to the player. */
export interface OwnModelRig {
  format: 'glb' | 'vrm0' | 'vrm1';
  convention: MouthConvention;
  /** Per player viseme, the targets that make it ('sil' is the rest pose: none). */
  visemes: Partial<Record<Viseme, MorphDrive[]>>;
  blink: MorphDrive[];
  smile: MorphDrive[];
  /** glTF node index of each bone found; Head is always there. */
  bones: Partial<Record<PoseBone, number>>;
  /** The head bone's name in the file (shown to the customer). */
  headBone: string;
  /** VRM 0.x models face −Z: the player turns them round. */
  facesBack: boolean;
  /** Shapes of the convention the model lacks (their sounds use a neighbour's shape). */
  missing: string[];
}

export const OWN_MODEL_MESSAGES = {
  noMouth: 'no mouth shapes found: expected Oculus visemes, ARKit blend shapes or VRM expressions',
  noSkin: 'no skinned mesh found: the model needs a skeleton (a glTF skin) to move',
  noHead: 'no head bone found: expected a bone named Head, head, J_Bip_C_Head or mixamorig:Head (or a VRM humanoid head)',
} as const;

/** The head bone's usual names, in the order they are looked for. */
export const HEAD_BONE_NAMES = ['Head', 'head', 'J_Bip_C_Head', 'mixamorig:Head', 'mixamorigHead', 'CC_Base_Head'];

/** Bone names by convention (ours = Ready Player Me's for most, mixamo, VRoid). */
const BONE_NAMES: Record<PoseBone, string[]> = {
  Hips: ['Hips', 'hips', 'mixamorig:Hips', 'J_Bip_C_Hips', 'CC_Base_Hip'],
  Spine: ['Spine', 'spine', 'mixamorig:Spine', 'J_Bip_C_Spine', 'CC_Base_Spine01'],
  Chest: ['Chest', 'chest', 'Spine2', 'mixamorig:Spine2', 'J_Bip_C_Chest', 'J_Bip_C_UpperChest', 'CC_Base_Spine02'],
  Neck: ['Neck', 'neck', 'mixamorig:Neck', 'J_Bip_C_Neck', 'CC_Base_NeckTwist01'],
  Head: HEAD_BONE_NAMES,
  LeftShoulder: ['LeftShoulder', 'mixamorig:LeftShoulder', 'J_Bip_L_Shoulder', 'CC_Base_L_Clavicle'],
  RightShoulder: ['RightShoulder', 'mixamorig:RightShoulder', 'J_Bip_R_Shoulder', 'CC_Base_R_Clavicle'],
  LeftUpperArm: ['LeftUpperArm', 'LeftArm', 'mixamorig:LeftArm', 'J_Bip_L_UpperArm', 'CC_Base_L_Upperarm'],
  RightUpperArm: ['RightUpperArm', 'RightArm', 'mixamorig:RightArm', 'J_Bip_R_UpperArm', 'CC_Base_R_Upperarm'],
  LeftLowerArm: ['LeftLowerArm', 'LeftForeArm', 'mixamorig:LeftForeArm', 'J_Bip_L_LowerArm', 'CC_Base_L_Forearm'],
  RightLowerArm: ['RightLowerArm', 'RightForeArm', 'mixamorig:RightForeArm', 'J_Bip_R_LowerArm', 'CC_Base_R_Forearm'],
};

/** VRM humanoid bone names of each pose bone (VRM 0.x and 1.0 use the same names). */
const VRM_BONES: Record<PoseBone, string[]> = {
  Hips: ['hips'],
  Spine: ['spine'],
  Chest: ['upperChest', 'chest'],
  Neck: ['neck'],
  Head: ['head'],
  LeftShoulder: ['leftShoulder'],
  RightShoulder: ['rightShoulder'],
  LeftUpperArm: ['leftUpperArm'],
  RightUpperArm: ['rightUpperArm'],
  LeftLowerArm: ['leftLowerArm'],
  RightLowerArm: ['rightLowerArm'],
};

/**
 * ARKit blend shapes per viseme (names without side: `mouthSmile` means Left and Right, or
 * Apple's raw `_L` / `_R`). Weights after TalkingHead's and Ready Player Me's tables, rounded.
 */
const ARKIT_VISEMES: Record<Exclude<Viseme, 'sil'>, [string, number][]> = {
  PP: [
    ['mouthClose', 0.6],
    ['mouthPress', 0.4],
    ['jawOpen', 0.05],
  ],
  FF: [
    ['mouthRollLower', 0.6],
    ['mouthUpperUp', 0.3],
    ['jawOpen', 0.1],
  ],
  TH: [
    ['jawOpen', 0.2],
    ['tongueOut', 0.4],
  ],
  DD: [
    ['jawOpen', 0.25],
    ['mouthStretch', 0.3],
  ],
  kk: [
    ['jawOpen', 0.3],
    ['mouthStretch', 0.25],
  ],
  CH: [
    ['mouthFunnel', 0.55],
    ['jawOpen', 0.2],
  ],
  SS: [
    ['mouthStretch', 0.35],
    ['mouthSmile', 0.25],
    ['jawOpen', 0.1],
  ],
  nn: [
    ['jawOpen', 0.2],
    ['mouthClose', 0.1],
  ],
  RR: [
    ['mouthPucker', 0.45],
    ['jawOpen', 0.2],
  ],
  aa: [
    ['jawOpen', 0.7],
    ['mouthFunnel', 0.1],
  ],
  E: [
    ['jawOpen', 0.35],
    ['mouthStretch', 0.4],
  ],
  I: [
    ['jawOpen', 0.2],
    ['mouthSmile', 0.55],
  ],
  O: [
    ['jawOpen', 0.45],
    ['mouthFunnel', 0.65],
  ],
  U: [
    ['mouthPucker', 0.85],
    ['jawOpen', 0.1],
  ],
};
/** The ARKit shapes the table above uses: the ones reported missing. */
const ARKIT_MOUTH = ['jawOpen', 'mouthFunnel', 'mouthPucker', 'mouthClose', 'mouthSmile', 'mouthStretch', 'mouthRollLower', 'mouthPress'];

/** VRM's five vowels per viseme (consonants borrow a vowel, lightly). */
const VRM_VISEMES: Record<Exclude<Viseme, 'sil'>, [VrmVowel, number][]> = {
  PP: [],
  FF: [['ih', 0.35]],
  TH: [['ee', 0.35]],
  DD: [['ee', 0.45]],
  kk: [['aa', 0.4]],
  CH: [['ou', 0.5]],
  SS: [['ih', 0.5]],
  nn: [['aa', 0.2]],
  RR: [['ou', 0.45]],
  aa: [['aa', 1]],
  E: [['ee', 1]],
  I: [['ih', 1]],
  O: [['oh', 1]],
  U: [['ou', 1]],
};
type VrmVowel = 'aa' | 'ih' | 'ou' | 'ee' | 'oh';
const VRM_VOWELS: VrmVowel[] = ['aa', 'ih', 'ou', 'ee', 'oh'];
/** VRM 0.x preset names of the same expressions. */
const VRM0_PRESETS: Record<VrmVowel | 'blink' | 'happy', string> = {
  aa: 'a',
  ih: 'i',
  ou: 'u',
  ee: 'e',
  oh: 'o',
  blink: 'blink',
  happy: 'joy',
};

// ---- the glTF JSON as far as this module reads it (already bounded by the server) ----
interface GltfNode {
  name?: string;
  mesh?: number;
  skin?: number;
  children?: number[];
}
interface GltfMesh {
  extras?: { targetNames?: unknown };
  primitives?: { targets?: unknown[]; extras?: { targetNames?: unknown } }[];
}
export interface GltfJson {
  nodes?: GltfNode[];
  meshes?: GltfMesh[];
  skins?: { joints?: number[] }[];
  extensionsUsed?: string[];
  extensions?: Record<string, unknown>;
}

type Bind = { mesh: number; target: number; weight: number };

/** Every morph target by name: name → drives on every mesh that has it. */
function targetsByName(json: GltfJson): Map<string, MorphDrive[]> {
  const out = new Map<string, MorphDrive[]>();
  (json.meshes ?? []).forEach((m, mesh) => {
    const names = m.extras?.targetNames ?? m.primitives?.[0]?.extras?.targetNames;
    if (!Array.isArray(names)) return;
    names.forEach((name, target) => {
      if (typeof name !== 'string') return;
      const list = out.get(name) ?? [];
      list.push({ mesh, target, weight: 1 });
      out.set(name, list);
    });
  });
  return out;
}

const scaled = (drives: MorphDrive[], weight: number) => drives.map((d) => ({ ...d, weight: d.weight * weight }));

/** ARKit names with or without a side: Left/Right, or Apple's raw _L/_R. */
function arkitDrives(names: Map<string, MorphDrive[]>, base: string): MorphDrive[] {
  const exact = names.get(base);
  if (exact) return exact;
  return ['Left', 'Right', '_L', '_R'].flatMap((side) => names.get(base + side) ?? []);
}

/** The VRM expressions (1.0 and 0.x) as binds on mesh targets, by VRM 1.0 preset name. */
function vrmExpressions(json: GltfJson): Map<string, Bind[]> | null {
  const out = new Map<string, Bind[]>();
  const v1 = json.extensions?.VRMC_vrm as { expressions?: { preset?: Record<string, unknown> } } | undefined;
  if (v1) {
    const nodes = json.nodes ?? [];
    for (const [name, e] of Object.entries(v1.expressions?.preset ?? {})) {
      const binds = (e as { morphTargetBinds?: { node?: number; index?: number; weight?: number }[] }).morphTargetBinds ?? [];
      out.set(
        name,
        binds.flatMap((b) => {
          const mesh = typeof b.node === 'number' ? nodes[b.node]?.mesh : undefined;
          return typeof mesh === 'number' && typeof b.index === 'number' ? [{ mesh, target: b.index, weight: clamp01(b.weight ?? 1) }] : [];
        }),
      );
    }
    return out;
  }
  const v0 = json.extensions?.VRM as { blendShapeMaster?: { blendShapeGroups?: unknown[] } } | undefined;
  if (!v0) return null;
  for (const g of v0.blendShapeMaster?.blendShapeGroups ?? []) {
    const group = g as { presetName?: string; binds?: { mesh?: number; index?: number; weight?: number }[] };
    const preset = Object.entries(VRM0_PRESETS).find(([, p]) => p === group.presetName)?.[0];
    if (!preset) continue;
    out.set(
      preset,
      (group.binds ?? []).flatMap((b) =>
        typeof b.mesh === 'number' && typeof b.index === 'number'
          ? [{ mesh: b.mesh, target: b.index, weight: clamp01((b.weight ?? 100) / 100) }]
          : [],
      ),
    );
  }
  return out;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

export type MouthShapes = Pick<OwnModelRig, 'convention' | 'visemes' | 'blink' | 'smile' | 'missing'>;

/** The model's mouth shapes in the first convention it has, or null when it has none. */
export function mouthShapes(json: GltfJson): MouthShapes | null {
  const names = targetsByName(json);
  const blinkBy = (...bases: string[]) => bases.map((b) => arkitDrives(names, b)).find((d) => d.length) ?? [];
  const blink = blinkBy('blink', 'eyeBlink', 'eyesClosed', 'Blink');
  const smile = blinkBy('smile', 'mouthSmile');

  if (names.has('viseme_aa')) {
    const visemes: MouthShapes['visemes'] = {};
    const missing: string[] = [];
    for (const v of VISEMES) {
      if (v === 'sil') continue;
      const drives = names.get(`viseme_${v}`);
      if (drives) visemes[v] = drives;
      else missing.push(`viseme_${v}`);
    }
    return { convention: 'oculus', visemes, blink, smile, missing };
  }
  if (names.has('jawOpen')) {
    const visemes: MouthShapes['visemes'] = {};
    for (const [v, parts] of Object.entries(ARKIT_VISEMES) as [Viseme, [string, number][]][]) {
      visemes[v] = parts.flatMap(([base, w]) => scaled(arkitDrives(names, base), w));
    }
    const missing = ARKIT_MOUTH.filter((base) => arkitDrives(names, base).length === 0);
    return { convention: 'arkit', visemes, blink, smile, missing };
  }
  const vrm = vrmExpressions(json);
  // Plain morph targets named after VRM's vowels count as VRM expressions too.
  const vowel = (name: VrmVowel): MorphDrive[] => vrm?.get(name) ?? names.get(name) ?? names.get(VRM0_PRESETS[name].toUpperCase()) ?? [];
  if (vowel('aa').length) {
    const visemes: MouthShapes['visemes'] = {};
    for (const [v, parts] of Object.entries(VRM_VISEMES) as [Viseme, [VrmVowel, number][]][]) {
      visemes[v] = parts.flatMap(([name, w]) => scaled(vowel(name), w));
    }
    const missing = VRM_VOWELS.filter((name) => vowel(name).length === 0);
    return {
      convention: 'vrm',
      visemes,
      blink: vrm?.get('blink')?.length ? vrm.get('blink')! : blink,
      smile: vrm?.get('happy')?.length ? vrm.get('happy')! : smile,
      missing,
    };
  }
  return null;
}

/** The pose bones of the model: from the VRM humanoid when there is one, else by name among the skins' joints. */
export function poseBones(json: GltfJson): Partial<Record<PoseBone, number>> {
  const out: Partial<Record<PoseBone, number>> = {};
  const v1 = (json.extensions?.VRMC_vrm as { humanoid?: { humanBones?: Record<string, { node?: number }> } } | undefined)?.humanoid;
  const v0 = (json.extensions?.VRM as { humanoid?: { humanBones?: { bone?: string; node?: number }[] } } | undefined)?.humanoid;
  const human = new Map<string, number>();
  for (const [bone, b] of Object.entries(v1?.humanBones ?? {})) if (typeof b?.node === 'number') human.set(bone, b.node);
  for (const b of v0?.humanBones ?? []) if (typeof b.bone === 'string' && typeof b.node === 'number') human.set(b.bone, b.node);
  const joints = new Set((json.skins ?? []).flatMap((s) => s.joints ?? []));
  const byName = new Map<string, number>();
  (json.nodes ?? []).forEach((n, i) => {
    if (typeof n.name === 'string' && (joints.has(i) || !byName.has(n.name))) byName.set(n.name, i);
  });
  for (const bone of POSE_BONES) {
    const fromVrm = VRM_BONES[bone].map((b) => human.get(b)).find((n) => n !== undefined);
    const fromName = BONE_NAMES[bone].map((b) => byName.get(b)).find((n) => n !== undefined);
    const node = fromVrm ?? fromName;
    if (node !== undefined) out[bone] = node;
  }
  return out;
}

/** How the model's shapes are explained to the customer after a successful upload. */
export function describeRig(rig: Pick<OwnModelRig, 'convention' | 'missing' | 'headBone' | 'blink'>): string {
  const parts = [
    `Mouth: ${CONVENTION_NAMES[rig.convention]}`,
    `head bone: ${rig.headBone}`,
    rig.blink.length ? 'blinks' : 'no blink shape',
  ];
  if (rig.missing.length) parts.push(`missing: ${rig.missing.join(', ')} (those sounds use the nearest shape)`);
  return parts.join('; ') + '.';
}
