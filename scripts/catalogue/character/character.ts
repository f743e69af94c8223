// One character as a GLB: a skinned body on a humanoid skeleton, and on the Head bone the face
// (with its 17 morph targets), the two eyeballs (nodes that turn), their catch-lights and the hair.
import type { Person } from '../people';
import { GlbBuilder } from '../mesh/glb';
import { simplifyMesh } from '../mesh/simplify';
import { linear, partition, type MeshData } from '../mesh/mesh';
import type { V3 } from '../mesh/sdf';
import { buildBody } from './body3d';
import { buildHair, hairSdf } from './hair3d';
import { HAIR_TEXTURE_REPEAT, hairNormalTexture, hairTexture } from './hair-texture';
import { buildStrands } from './hair-strands';
import { buildFace, cull } from './head3d';
import { headLayout } from './head-shape';
import { HEAD_CENTRE, skeleton, skinWeights } from './skeleton';
import { browTexture, clothTexture, skinTexture, wrapUVs } from './textures';

export interface CharacterStats {
  vertices: number;
  bytes: number;
}

/** The stylised head is drawn a little larger than life. */
const HEAD_SCALE = 1.08;

/** The face's skin: surface nets at this cell size (metres). */
const FACE_CELL = 0.0028;
/** The lighter face for software WebGL (decision 128): a coarser skin, half the triangles or
 *  fewer; the lips, lids, mouth and morph targets are built as for the full face. */
export const LIGHT_FACE_CELL = 0.005;

/** How far (metres) the body's simplified surface may be from the generated one. */
const BODY_ERROR = 0.0005;

const cullInside = (m: MeshData, hidden: (q: V3) => boolean): MeshData => cull(m, (q) => !hidden(q));

/** `faceCell`: the face's skin grid (LIGHT_FACE_CELL for the software profile's model). */
export function buildCharacter(p: Person, faceCell = FACE_CELL): { glb: Buffer; stats: CharacterStats } {
  const full = p.type === '3d';
  const joints = skeleton(full);
  const layout = headLayout(p);
  const hairField = hairSdf(p, layout.sdf);
  // Skin under the hair is dropped only where the hair is thick: its 4 mm grid misses the field's
  // thinnest bits (a curl at the hairline), and skin dropped under them left a hole to the backdrop.
  const face = buildFace(p, faceCell, (q) => hairField(q[0], q[1], q[2]) > -0.005, hairField);
  const hair = cullInside(buildHair(p, layout.sdf, 0.004).mesh, (q) => layout.sdf(q[0], q[1], q[2]) < -0.003);
  const strandMesh = buildStrands(p, hairField);
  // The neck's top is inside the head: drop what no one can see. Then fewer triangles where the
  // body is smooth (the grid spends as many on a flat shirt front as on a collar).
  const body = simplifyMesh(
    cullInside(
      buildBody(p, full, full ? 0.0105 : 0.0085),
      (q) =>
        layout.sdf((q[0] - HEAD_CENTRE[0]) / HEAD_SCALE, (q[1] - HEAD_CENTRE[1]) / HEAD_SCALE, (q[2] - HEAD_CENTRE[2]) / HEAD_SCALE) <
        -0.004,
    ),
    BODY_ERROR,
  );

  const g = new GlbBuilder();
  const nodeOf = new Map<string, number>();
  for (const j of joints) {
    const parent = j.parent ? joints.find((k) => k.name === j.parent)! : null;
    const t = parent ? [j.at[0] - parent.at[0], j.at[1] - parent.at[1], j.at[2] - parent.at[2]] : j.at;
    const n = g.node({ name: j.name, translation: t.map((v) => Math.round(v * 1e6) / 1e6) });
    nodeOf.set(j.name, n);
    if (parent) g.addChild(nodeOf.get(parent.name)!, n);
  }
  const head = joints.find((j) => j.name === 'Head')!;
  const local: V3 = [HEAD_CENTRE[0] - head.at[0], HEAD_CENTRE[1] - head.at[1], HEAD_CENTRE[2] - head.at[2]];
  // Textures multiply the vertex colours: skin (the head's texture coordinates wrap round it),
  // cloth weave, hair-like brow strokes.
  const textures = { skin: g.texture(skinTexture()), cloth: g.texture(clothTexture()), brow: g.texture(browTexture()) };
  face.face.uvs = wrapUVs(face.face.positions, 0, 0, -0.14, 0.28);
  const skin = { name: 'Skin', roughness: 0.52, texture: { index: textures.skin, repeat: [3, 1.5] as [number, number] } };
  const faceMesh = g.mesh('Face', [{ data: face.face, material: skin, targets: face.targets }]);
  const browsMesh = g.mesh('Brows', [
    { data: face.brows, material: { name: 'Brows', roughness: 0.8, texture: { index: textures.brow }, mask: true } },
  ]);
  const eyeMesh = g.mesh('Eye', [{ data: face.eyeball, material: { name: 'Eyes', roughness: 0.12 } }]);
  const shineMesh = g.mesh('EyeShine', [{ data: face.shine, material: { name: 'EyeShine', roughness: 1, emissive: [1, 1, 1] } }]);
  // Curls matte: on their small bumps a glossy highlight reads as white specks.
  // Combed hair: fine strands from a texture whose coordinates run along the hair's flow.
  // Dark hair shows its strands only in the highlight: deeper grooves there (colour cannot show them).
  const darkHair = Math.max(...linear(p.hair.color)) < 0.03;
  const strands = hair.uvs
    ? {
        texture: { index: g.texture(hairTexture()), repeat: HAIR_TEXTURE_REPEAT },
        normalTexture: { index: g.texture(hairNormalTexture(darkHair ? 1.8 : 1)), repeat: HAIR_TEXTURE_REPEAT },
      }
    : {};
  const hairRoughness = p.hair.style === 'headscarf' ? 0.9 : p.hair.style === 'curlyShort' ? 0.7 : 0.55;
  const hairMesh = g.mesh('Hair', [
    { data: hair, material: { name: 'Hair', roughness: hairRoughness, ...strands } },
    // A few loose strands (hair-strands.ts), untextured, in the same mesh.
    ...(strandMesh.indices.length ? [{ data: strandMesh, material: { name: 'HairStrands', roughness: hairRoughness } }] : []),
  ]);
  const scale: V3 = [HEAD_SCALE, HEAD_SCALE, HEAD_SCALE];
  for (const [name, mesh] of [
    ['Face', faceMesh],
    ['Brows', browsMesh],
    ['EyeShine', shineMesh],
    ['Hair', hairMesh],
  ] as const) {
    g.addChild(nodeOf.get('Head')!, g.node({ name, mesh, translation: local, scale }));
  }
  // Each eyeball turns about its own centre (the player moves RightEye and LeftEye).
  layout.eyes.forEach((c, i) => {
    const at = [0, 1, 2].map((k) => Math.round((local[k]! + c[k]! * HEAD_SCALE) * 1e6) / 1e6);
    g.addChild(nodeOf.get('Head')!, g.node({ name: i === 0 ? 'RightEye' : 'LeftEye', mesh: eyeMesh, translation: at, scale }));
  });
  // The body is skinned in world space; the head's parts above ride the Head bone rigidly.
  // Two primitives: bare skin (neck, hands) and clothes, each with its texture.
  const tone = linear(p.skin);
  const isSkin = (v: number) => {
    const r = [0, 1, 2].map((k) => body.colors[v * 3 + k]! / tone[k]!);
    return Math.max(...r) - Math.min(...r) < 0.01 * Math.max(...r);
  };
  const [bare, cloth] = partition(body, isSkin);
  for (const part of [bare, cloth]) part.uvs = wrapUVs(part.positions, 0, 0, 0, 1.8);
  const bodyMesh = g.mesh('Body', [
    {
      data: cloth,
      material: { name: 'Clothes', roughness: 0.8, texture: { index: textures.cloth, repeat: [22, 45] } },
      skin: skinWeights(cloth.positions, joints),
    },
    {
      data: bare,
      material: { name: 'BodySkin', roughness: 0.58, texture: { index: textures.skin, repeat: [5, 10] } },
      skin: skinWeights(bare.positions, joints),
    },
  ]);
  const skinIndex = g.skin(
    joints.map((j) => nodeOf.get(j.name)!),
    joints.map((j) => [...j.at]),
    nodeOf.get('Hips')!,
  );
  const bodyNode = g.node({ name: 'Body', mesh: bodyMesh, skin: skinIndex });
  const root = g.node({ name: p.name, children: [nodeOf.get('Hips')!, bodyNode] });
  g.root(root);
  const glb = g.toBuffer();
  const vertices =
    (face.face.positions.length +
      face.eyeball.positions.length * 2 +
      face.shine.positions.length +
      face.brows.positions.length +
      hair.positions.length +
      strandMesh.positions.length +
      body.positions.length) /
    3;
  return { glb, stats: { vertices, bytes: glb.length } };
}
