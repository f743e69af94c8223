// The characters' skeleton, in world space at rest (metres, feet on y = 0, facing +Z). Names
// follow the usual humanoid convention so idle animation code can find bones by name.
import type { V3 } from '../mesh/sdf';

export interface Joint {
  name: string;
  parent: string | null;
  at: V3;
  /** End of the bone for skin weights (towards the child). */
  tip: V3;
}

const sides = (name: string, parent: string, at: V3, tip: V3, parentRight?: string): Joint[] => [
  { name: `Left${name}`, parent: parent.startsWith('*') ? `Left${parent.slice(1)}` : parent, at, tip },
  {
    name: `Right${name}`,
    parent: parent.startsWith('*') ? `Right${parent.slice(1)}` : (parentRight ?? parent),
    at: [-at[0], at[1], at[2]],
    tip: [-tip[0], tip[1], tip[2]],
  },
];

export const HEAD_CENTRE: V3 = [0, 1.6, 0.008];

export function skeleton(fullBody: boolean): Joint[] {
  const joints: Joint[] = [
    { name: 'Hips', parent: null, at: [0, 0.98, 0], tip: [0, 1.1, 0] },
    { name: 'Spine', parent: 'Hips', at: [0, 1.1, 0], tip: [0, 1.27, -0.005] },
    { name: 'Chest', parent: 'Spine', at: [0, 1.27, -0.005], tip: [0, 1.43, -0.015] },
    { name: 'Neck', parent: 'Chest', at: [0, 1.44, -0.015], tip: [0, 1.515, -0.01] },
    { name: 'Head', parent: 'Neck', at: [0, 1.515, -0.01], tip: [0, 1.7, 0] },
    ...sides('Shoulder', 'Chest', [0.06, 1.42, -0.02], [0.18, 1.385, -0.025]),
    ...sides('UpperArm', '*Shoulder', [0.18, 1.385, -0.025], [0.215, 1.12, -0.035]),
    ...sides('LowerArm', '*UpperArm', [0.215, 1.12, -0.035], [0.235, 0.88, 0.0]),
    ...sides('Hand', '*LowerArm', [0.235, 0.88, 0.0], [0.24, 0.79, 0.015]),
  ];
  if (fullBody) {
    joints.push(
      ...sides('UpperLeg', 'Hips', [0.09, 0.93, 0], [0.095, 0.51, 0.005]),
      ...sides('LowerLeg', '*UpperLeg', [0.095, 0.51, 0.005], [0.1, 0.09, -0.015]),
      ...sides('Foot', '*LowerLeg', [0.1, 0.09, -0.015], [0.1, 0.03, 0.12]),
    );
  }
  return joints;
}

function segmentDistance(p: V3, a: V3, b: V3): number {
  const ab: V3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const ap: V3 = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const t = Math.max(0, Math.min(1, (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / (ab[0] ** 2 + ab[1] ** 2 + ab[2] ** 2)));
  return Math.hypot(ap[0] - ab[0] * t, ap[1] - ab[1] * t, ap[2] - ab[2] * t);
}

/** Four joints and weights per vertex from the distance to each bone (sharp falloff). */
export function skinWeights(positions: number[], joints: Joint[]): { joints: Uint8Array; weights: Float32Array } {
  const count = positions.length / 3;
  const J = new Uint8Array(count * 4);
  const W = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) {
    const p: V3 = [positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!];
    const scored = joints
      .map((j, i) => {
        // The shoulders and neck bones are short: favour the longer bones next to them a little.
        const d = segmentDistance(p, j.at, j.tip) + (j.name.endsWith('Shoulder') ? 0.02 : 0);
        return { i, w: 1 / (Math.pow(d + 0.01, 6) + 1e-14) };
      })
      .sort((a, b) => b.w - a.w)
      .slice(0, 4);
    const sum = scored.reduce((a, s) => a + s.w, 0);
    scored.forEach((s, k) => {
      J[v * 4 + k] = s.i;
      W[v * 4 + k] = s.w / sum;
    });
  }
  return { joints: J, weights: W };
}
