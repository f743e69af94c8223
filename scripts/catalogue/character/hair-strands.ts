// Loose strands: a handful of thin tapered tubes per head that start on the hair and follow its
// flow, leaving the mass where it curves away under them (at the crown, over the sides, past the
// ends of long hair and the ponytail). They break the hair's smooth outline a little, as stray
// hairs do in the 2D portraits. Seeded, so every build is the same.
import type { Person } from '../people';
import { emptyMesh, linear, lerp3, type MeshData } from '../mesh/mesh';
import { gradient, type Sdf, type V3 } from '../mesh/sdf';
import { flowAt } from './hair-locks';
import { HAIR_TEXTURE_MEAN } from './hair-texture';
import { seeded } from './textures';

type Style = Person['hair']['style'];

/** Where strands start (head space, near the hair's surface) and how far they hang down (0 … 1). */
interface Seed {
  at: V3;
  fall: number;
}

/** Per style: a few at the crown and sides, and at the ends of long hair and the ponytail. */
function seeds(style: Style): Seed[] {
  const crown: Seed[] = [
    { at: [0.02, 0.14, -0.02], fall: 0.1 },
    { at: [-0.03, 0.13, -0.05], fall: 0.1 },
    { at: [0.05, 0.11, -0.03], fall: 0.2 },
    { at: [-0.065, 0.08, -0.04], fall: 0.3 },
    { at: [-0.055, 0.115, 0.01], fall: 0.2 },
  ];
  switch (style) {
    case 'quiff':
    case 'sideSwept':
      return [...crown, { at: [0.07, 0.07, 0.0], fall: 0.3 }];
    case 'ponytail':
      return [
        ...crown,
        // Round the tail's end (hair3d.ts: the tail runs down to y -0.14 at z -0.128).
        { at: [0.012, -0.1, -0.136], fall: 0.9 },
        { at: [-0.014, -0.11, -0.132], fall: 0.9 },
        { at: [0.004, -0.12, -0.145], fall: 0.9 },
      ];
    case 'longStraight':
    case 'longWavy':
    case 'bob':
      return [
        ...crown,
        // Near the ends, at the back and beside the face.
        { at: [0.05, -0.15, -0.09], fall: 1 },
        { at: [-0.04, -0.16, -0.095], fall: 1 },
        { at: [0.1, -0.13, -0.03], fall: 1 },
        { at: [-0.1, -0.12, -0.02], fall: 1 },
      ];
    default:
      return [];
  }
}

const norm = (v: V3): V3 => {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
};

/** The way the hair runs at q, in the surface's plane (along grows from the roots to the ends). */
function flowDirection(style: Style, sdf: Sdf, q: V3): V3 {
  const e = 0.002;
  const along = (p: V3) => flowAt(style, p).along;
  const d: V3 = [0, 1, 2].map((k) => {
    const a: V3 = [...q];
    const b: V3 = [...q];
    a[k] -= e;
    b[k] += e;
    return along(b) - along(a);
  }) as V3;
  const n = gradient(sdf, q[0], q[1], q[2]);
  const dn = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
  return norm([d[0] - dn * n[0], d[1] - dn * n[1], d[2] - dn * n[2]]);
}

/** One strand's centre line: along the flow from `seed`, never into the hair, pulled down by `fall`. */
function strandPath(style: Style, sdf: Sdf, seed: Seed, rnd: () => number): V3[] {
  // Onto the surface first.
  let q = seed.at;
  for (let k = 0; k < 8; k++) {
    const d = sdf(q[0], q[1], q[2]) - 0.0006;
    const g = gradient(sdf, q[0], q[1], q[2]);
    q = [q[0] - g[0] * d, q[1] - g[1] * d, q[2] - g[2] * d];
  }
  const steps = 14;
  const step = 0.0028 + 0.0012 * rnd();
  // A slight turn of its own, so the strands are not parallel to the locks.
  const twist = (rnd() - 0.5) * 0.5;
  let dir = flowDirection(style, sdf, q);
  const path: V3[] = [q];
  for (let i = 1; i <= steps; i++) {
    const d = sdf(q[0], q[1], q[2]);
    const n = gradient(sdf, q[0], q[1], q[2]);
    // Near the hair it follows the flow (a little less as it rises off it); past the end it goes on.
    const follow = d < 0.01 ? 0.25 * (1 - d / 0.01) : 0;
    const flow = follow ? flowDirection(style, sdf, [q[0] - n[0] * d, q[1] - n[1] * d, q[2] - n[2] * d]) : dir;
    const side = norm([dir[1] * n[2] - dir[2] * n[1], dir[2] * n[0] - dir[0] * n[2], dir[0] * n[1] - dir[1] * n[0]]);
    dir = norm([
      dir[0] + (flow[0] - dir[0]) * follow + side[0] * twist * 0.15,
      dir[1] + (flow[1] - dir[1]) * follow + side[1] * twist * 0.15 - 0.12 * seed.fall,
      dir[2] + (flow[2] - dir[2]) * follow + side[2] * twist * 0.15,
    ]);
    q = [q[0] + dir[0] * step, q[1] + dir[1] * step, q[2] + dir[2] * step];
    // Never into the hair: lift it out to a little above the surface, rising along its length.
    const lift = 0.0006 + 0.006 * (i / steps) ** 2;
    const s = sdf(q[0], q[1], q[2]);
    if (s < lift) {
      const g = gradient(sdf, q[0], q[1], q[2]);
      q = [q[0] + g[0] * (lift - s), q[1] + g[1] * (lift - s), q[2] + g[2] * (lift - s)];
    }
    path.push(q);
  }
  return path;
}

/**
 * A tapered tube round a path: five sides, from `r0` at the root to a point at the tip. Its normals
 * are the hair's (`shade`): lit like the hair it lies on, a strand over the mass hardly shows (as
 * a round tube it drew a dark line with a light edge, a scratch); against the backdrop it does.
 */
function tube(path: V3[], r0: number, color: V3, shade: (q: V3) => V3, m: MeshData): void {
  const sides = 5;
  const start = m.positions.length / 3;
  let ref: V3 = [0, 1, 0];
  for (let i = 0; i < path.length; i++) {
    const a = path[Math.max(0, i - 1)]!,
      b = path[Math.min(path.length - 1, i + 1)]!;
    const t = norm([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
    if (Math.abs(t[0] * ref[0] + t[1] * ref[1] + t[2] * ref[2]) > 0.9) ref = [1, 0, 0];
    const u = norm([t[1] * ref[2] - t[2] * ref[1], t[2] * ref[0] - t[0] * ref[2], t[0] * ref[1] - t[1] * ref[0]]);
    const v: V3 = [t[1] * u[2] - t[2] * u[1], t[2] * u[0] - t[0] * u[2], t[0] * u[1] - t[1] * u[0]];
    const r = r0 * (1 - 0.9 * (i / (path.length - 1)));
    const lit = shade(path[i]!);
    for (let k = 0; k < sides; k++) {
      const ang = (2 * Math.PI * k) / sides;
      const nrm: V3 = [0, 1, 2].map((c) => u[c]! * Math.cos(ang) + v[c]! * Math.sin(ang)) as V3;
      m.positions.push(...([0, 1, 2].map((c) => path[i]![c]! + nrm[c]! * r) as V3));
      m.normals.push(...lit);
      m.colors.push(...color);
    }
  }
  for (let i = 0; i + 1 < path.length; i++)
    for (let k = 0; k < sides; k++) {
      const a = start + i * sides + k,
        b = start + i * sides + ((k + 1) % sides);
      m.indices.push(a, b, b + sides, a, b + sides, a + sides);
    }
}

/** The loose strands of a person's hair (empty for curls, a scarf, a buzz cut). */
export function buildStrands(p: Person, sdf: Sdf): MeshData {
  const m = emptyMesh();
  const list = seeds(p.hair.style);
  if (!list.length) return m;
  const rnd = seeded(7 + list.length);
  // The mass's colour (its vertex colours are lifted by the texture's mean, hair3d.ts): darker,
  // the strands read as scratches on fair hair.
  const base = linear(p.hair.color).map((c) => c / HAIR_TEXTURE_MEAN) as V3;
  // A touch lighter than the mass: thin hairs catch the light along their length (more than a
  // touch, on dark hair, and they read as scratches).
  const color = lerp3(base, [1, 1, 1], 0.025);
  const shade = (q: V3) => gradient(sdf, q[0], q[1], q[2]);
  for (const seed of list) tube(strandPath(p.hair.style, sdf, seed, rnd), 0.0006 + 0.0002 * rnd(), color, shade, m);
  return m;
}
