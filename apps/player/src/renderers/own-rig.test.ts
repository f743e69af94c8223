// @vitest-environment node
// The player drives a customer's own model through the rig the server found (decision 123):
// the generator's Oculus, ARKit and VRM test models open the mouth on "aa", close it at rest,
// blink, and give a head box at the head bone, whatever the bones are called.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Texture, Vector3, type Mesh } from 'three';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader, type GLTF, type GLTFParser } from 'three/addons/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { mouthShapes, poseBones, type GltfJson, type OwnModelRig } from '@parla/shared/own-model';
import { ownModelVariants, splitGlb } from '../../../../scripts/catalogue/own-models';
import { bindOwnRig } from './own-rig';

const CATALOGUE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as { avatars: { type: string; model: string }[] };
const models = ownModelVariants(readFileSync(join(CATALOGUE, index.avatars.find((a) => a.type === '2d')!.model)));

function parse(buf: Buffer): Promise<GLTF> {
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  const noImages = (_parser: GLTFParser) => ({ name: 'no-images', loadTexture: () => Promise.resolve(new Texture()) });
  return new Promise((ok, fail) => new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).register(noImages).parse(ab, '', ok, fail));
}

/** The rig as the server's model check builds it, from the same shared functions. */
function rigOf(buf: Buffer): OwnModelRig {
  const json = splitGlb(buf).json as GltfJson;
  const bones = poseBones(json);
  return { format: 'glb', ...mouthShapes(json)!, bones, headBone: String(bones.Head), facesBack: false };
}

describe('an own model driven by its rig', () => {
  it.each(['oculus', 'arkit', 'vrm0', 'vrm1'] as const)(
    'opens the %s model\u2019s mouth on "aa", closes it at rest and blinks',
    async (name) => {
      const gltf = await parse(models[name]);
      const rig = bindOwnRig(gltf, rigOf(models[name]));
      // The face is glTF mesh 0 in every variant; its 11th target is the catalogue's open "aa".
      const face = gltf.scene.getObjectByProperty('isMesh', true) as Mesh;
      const faces: Mesh[] = [];
      gltf.scene.traverse((o) => gltf.parser.associations.get(o)?.meshes === 0 && (o as Mesh).isMesh && faces.push(o as Mesh));
      expect(faces.length).toBeGreaterThan(0);
      rig.apply({ aa: 1 }, 0, 0);
      expect(faces[0]!.morphTargetInfluences![10]).toBeGreaterThanOrEqual(0.7);
      rig.apply({}, 1, 0);
      expect(faces[0]!.morphTargetInfluences![10]).toBe(0);
      expect(faces[0]!.morphTargetInfluences![15]).toBe(1);
      expect(face).toBeTruthy();
      expect([...rig.bones.keys()]).toEqual(expect.arrayContaining(['Head', 'Neck', 'Chest', 'LeftUpperArm']));

      gltf.scene.updateMatrixWorld(true);
      const head = rig.bones.get('Head')!.getWorldPosition(new Vector3());
      const box = rig.headBox();
      expect(box.containsPoint(head)).toBe(true);
      expect(box.max.y - box.min.y).toBeGreaterThan(0.1);
      expect(box.max.y - box.min.y).toBeLessThan(0.5);
    },
  );
});
