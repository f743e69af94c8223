// A customer's own 3D model (decision 123) driven by the rig the server found in it: each
// viseme, the blink and the smile move the glTF targets listed for them, and the idle motion
// turns the bones by glTF node index. Targets and bones are found through GLTFLoader's
// associations (object → glTF mesh / node index), not by name: three renames nodes
// ("mixamorig:Head" loses its colon) and VRM binds targets by index.
import { Box3, Vector3, type Mesh, type Object3D } from 'three';
import type { GLTF } from 'three/addons/loaders/GLTFLoader.js';
import type { MorphDrive, OwnModelRig, PoseBone } from '@parla/shared/own-model';
import type { Viseme } from '@parla/shared/visemes';

export interface OwnRig {
  bones: Map<PoseBone, Object3D>;
  /** Sets every target from the weights of the visemes (0…1 each), the blink and the smile. */
  apply(visemes: Partial<Record<Viseme, number>>, blink: number, smile: number): void;
  /** The head's box in world space, from the head bone (and the neck, for its size). */
  headBox(out?: Box3): Box3;
}

/** A head is about this many times the head-to-neck bone distance tall (adult proportions). */
const HEAD_PER_NECK = 2.4;
/** A head's height when the model has no neck bone, in metres. */
const HEAD_DEFAULT = 0.24;

export function bindOwnRig(gltf: GLTF, rig: OwnModelRig): OwnRig {
  const meshes = new Map<number, Mesh[]>();
  const nodes = new Map<number, Object3D>();
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (!a) return;
    if (a.nodes !== undefined && !nodes.has(a.nodes)) nodes.set(a.nodes, o);
    const m = o as Mesh;
    if (a.meshes !== undefined && m.isMesh && m.morphTargetInfluences) {
      const list = meshes.get(a.meshes) ?? [];
      list.push(m);
      meshes.set(a.meshes, list);
    }
  });
  const bones = new Map<PoseBone, Object3D>();
  for (const [bone, node] of Object.entries(rig.bones) as [PoseBone, number][]) {
    const o = nodes.get(node);
    if (o) bones.set(bone, o);
  }
  // Every target any shape moves, summed each frame from zero.
  const touched = new Set<string>();
  const all = [...Object.values(rig.visemes), rig.blink, rig.smile].flat() as MorphDrive[];
  for (const d of all) touched.add(`${d.mesh}:${d.target}`);
  const sums = new Map<string, number>();
  const add = (drives: MorphDrive[] | undefined, amount: number) => {
    if (!drives || amount <= 0) return;
    for (const d of drives) {
      const key = `${d.mesh}:${d.target}`;
      sums.set(key, (sums.get(key) ?? 0) + d.weight * amount);
    }
  };

  const head = bones.get('Head');
  const neck = bones.get('Neck');
  const at = new Vector3();
  const below = new Vector3();

  return {
    bones,
    apply(visemes, blink, smile) {
      sums.clear();
      for (const [v, amount] of Object.entries(visemes) as [Viseme, number][]) add(rig.visemes[v], amount);
      add(rig.blink, blink);
      add(rig.smile, smile);
      for (const key of touched) {
        const [mesh, target] = key.split(':').map(Number) as [number, number];
        const value = Math.min(1, sums.get(key) ?? 0);
        for (const m of meshes.get(mesh) ?? []) if (target < m.morphTargetInfluences!.length) m.morphTargetInfluences![target] = value;
      }
    },
    headBox(out = new Box3()) {
      if (!head) return out.setFromObject(gltf.scene);
      head.getWorldPosition(at);
      const h = neck ? Math.max(0.05, neck.getWorldPosition(below).distanceTo(at) * HEAD_PER_NECK) : HEAD_DEFAULT;
      // The head bone sits at the base of the skull: most of the head is above it.
      out.min.set(at.x - h * 0.4, at.y - h * 0.2, at.z - h * 0.45);
      out.max.set(at.x + h * 0.4, at.y + h * 0.8, at.z + h * 0.45);
      return out;
    },
  };
}
