// The 3D face of a character: skin from the head's distance field, eyelids, brows and the mouth
// decal merged into one mesh with the 15 viseme targets, blink and smile; eyeballs apart
// (eyes3d.ts).
import { FACE_MORPH_TARGETS, VISEMES } from '@parla/shared/visemes';
import type { MorphTarget } from '../mesh/glb';
import { compact, linear, lerp3, merge, type MeshData } from '../mesh/mesh';
import { gradient, smoothstep, type Sdf, type V3 } from '../mesh/sdf';
import { surfaceNets } from '../mesh/surface-nets';
import { MOUTH_SHAPES, SMILE_SHAPE, type MouthShape } from '../mouth-shapes';
import type { Person } from '../people';
import { catchLights, eyeball } from './eyes3d';
import { brow, eyelids } from './face-parts';
import { mouthDecal } from './mouth3d';
import { headLayout } from './head-shape';
import { faceColor } from './skin-tone';

export interface Face {
  face: MeshData;
  targets: MorphTarget[];
  /** The brows (no morphs), textured with hair-like strokes. */
  brows: MeshData;
  /** One eyeball at its own origin (each eye is a node at `layout.eyes[i]` that turns). */
  eyeball: MeshData;
  /** The catch-lights on both corneas, in head space. */
  shine: MeshData;
  /** The head's distance field, for hair that sits on it. */
  layout: ReturnType<typeof headLayout>;
}

/** Drops skin triangles for which `keep` is false at every corner (hidden under hair). */
export function cull(m: MeshData, keep: (q: V3) => boolean): MeshData {
  const P = m.positions;
  const ok = Array.from({ length: P.length / 3 }, (_, i) => keep([P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!]));
  const indices: number[] = [];
  for (let i = 0; i < m.indices.length; i += 3) {
    const [a, b, c] = [m.indices[i]!, m.indices[i + 1]!, m.indices[i + 2]!];
    if (ok[a] || ok[b] || ok[c]) indices.push(a, b, c);
  }
  return compact(m, indices);
}

/** `hair`: the hair's distance field, for a hairline that fades into it. */
export function buildFace(p: Person, cell = 0.0032, keep: (q: V3) => boolean = () => true, hair?: Sdf): Face {
  const L = headLayout(p);
  const skin = linear(p.skin);
  const sdf = L.sdf;
  const colorAt = faceColor(p, sdf, hair);

  // The jaw: points below the mouth turn about the pivot as the mouth opens.
  const jawAngle = (s: MouthShape) => (0.62 * s.open * 0.95 * L.mouthUnit) / 0.112;
  const jawShift =
    (s: MouthShape) =>
    (q: V3): V3 => {
      const my = L.mouth[1];
      const w =
        smoothstep(my + 0.007, my - 0.007, q[1]) *
        smoothstep(0.0, 0.035, q[2]) *
        (1 - smoothstep(0.045, 0.07, Math.abs(q[0]))) *
        (1 - smoothstep(my - 0.066, my - 0.076, q[1]));
      const a = jawAngle(s) * w;
      if (a === 0) return [0, 0, 0];
      const y = q[1] - L.jawPivot[1],
        z = q[2] - L.jawPivot[2];
      return [0, y * Math.cos(a) - z * Math.sin(a) - y, y * Math.sin(a) + z * Math.cos(a) - z];
    };
  // A smile lifts the cheeks.
  const smileShift = (q: V3): V3 => {
    const w = Math.max(0, 1 - Math.hypot(Math.abs(q[0]) - 0.036, q[1] - L.mouth[1] - 0.012, Math.max(0, 0.07 - q[2])) / 0.03);
    const k = w * w * (3 - 2 * w);
    return [Math.sign(q[0]) * 0.0012 * k, 0.0026 * k, -0.0004 * k];
  };
  const none = (): V3 => [0, 0, 0];

  // Skin, pushed in a little under the mouth decal so the decal always shows.
  const skinMesh = cull(surfaceNets(sdf, [-0.095, -0.13, -0.12], [0.095, 0.125, 0.13], cell, colorAt), keep);
  for (let i = 0; i < skinMesh.positions.length; i += 3) {
    const q: V3 = [skinMesh.positions[i]!, skinMesh.positions[i + 1]!, skinMesh.positions[i + 2]!];
    const dx = q[0] / (2.1 * L.mouthUnit),
      dy = (q[1] - L.mouth[1]) / ((q[1] < L.mouth[1] ? 1.7 : 1.4) * L.mouthUnit);
    const inside = 1 - Math.hypot(dx, dy);
    if (inside > 0 && q[2] > 0.04) {
      const n = gradient(sdf, q[0], q[1], q[2]);
      const d = 0.0012 * smoothstep(0, 0.2, inside);
      skinMesh.positions[i] = q[0] - n[0] * d;
      skinMesh.positions[i + 1] = q[1] - n[1] * d;
      skinMesh.positions[i + 2] = q[2] - n[2] * d;
    }
  }

  const lids = L.eyes.map((e, i) => eyelids(p, sdf, L.uncut, e, L.eyeRadius, i === 0 ? -1 : 1, lerp3(skin, [0, 0, 0], 0.06), colorAt));
  const brows = L.brows.map((c) => brow(p, sdf, c));
  const decal = mouthDecal(p, sdf, L.mouth, L.mouthUnit, colorAt);
  const mouthRest = decal.mesh(MOUTH_SHAPES.sil);

  const face = merge(skinMesh, ...lids.map((l) => l.mesh), mouthRest);
  const counts = { skin: skinMesh.positions.length, lids: lids.reduce((a, l) => a + l.mesh.positions.length, 0) };
  const decalOffset = counts.skin + counts.lids;

  const target = (name: string, skinField: (q: V3) => V3, mouth: MouthShape, blink: boolean): MorphTarget => {
    const deltas = new Float32Array(face.positions.length);
    for (let i = 0; i < counts.skin; i += 3) {
      const d = skinField([face.positions[i]!, face.positions[i + 1]!, face.positions[i + 2]!]);
      deltas.set(d, i);
    }
    if (blink) {
      let off = counts.skin;
      for (const l of lids) {
        for (let i = 0; i < l.closed.length; i++) deltas[off + i] = l.closed[i]! - face.positions[off + i]!;
        off += l.closed.length;
      }
    }
    const frame = decal.frame(mouth, skinField);
    for (let i = 0; i < frame.length; i++) deltas[decalOffset + i] = frame[i]! - face.positions[decalOffset + i]!;
    return { name, deltas };
  };

  const targets: MorphTarget[] = [
    ...VISEMES.map((v) => target(`viseme_${v}`, jawShift(MOUTH_SHAPES[v]), MOUTH_SHAPES[v], false)),
    target('blink', none, MOUTH_SHAPES.sil, true),
    target('smile', smileShift, SMILE_SHAPE, false),
  ];
  if (targets.map((t) => t.name).join() !== FACE_MORPH_TARGETS.join()) throw new Error('face targets out of order');
  return { face, targets, brows: merge(...brows), eyeball: eyeball(p, L.eyeRadius), shine: catchLights(L.eyes, L.eyeRadius), layout: L };
}
