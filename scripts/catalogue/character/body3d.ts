// Bodies as distance fields in world space: neck, shoulders, chest, arms and hands; legs and
// feet for full-body characters. Clothes are vertex colours by region.
import { cutAll, type Field } from '../mesh/cut';
import type { Outfit, Person } from '../people';
import { linear, lerp3, merge, type MeshData } from '../mesh/mesh';
import { buttons, HEM, LAPEL, neckTrim, trim } from './trims';
import { capsule, ellipsoid, roundBox, smin, smoothstep, type Sdf, type V3 } from '../mesh/sdf';
import { surfaceNets } from '../mesh/surface-nets';

const mirrored =
  (s: Sdf): Sdf =>
  (x, y, z) =>
    s(Math.abs(x), y, z);

export function bodySdf(p: Person, fullBody: boolean): Sdf {
  const fem = p.feminine;
  const sh = fem ? 0.165 : 0.18;
  const parts: [Sdf, number][] = [
    [capsule([0, 1.53, -0.014], [0, 1.41, -0.018], fem ? 0.047 : 0.053), 0],
    [mirrored(capsule([0, 1.445, -0.03], [sh - 0.05, 1.41, -0.025], 0.045)), 0.05],
    [mirrored(ellipsoid([sh, 1.39, -0.02], [0.058, 0.058, 0.058])), 0.05],
    [ellipsoid([0, 1.3, -0.005], [fem ? 0.15 : 0.166, 0.16, 0.1]), 0.06],
    [ellipsoid([0, 1.12, 0], [fem ? 0.125 : 0.142, 0.15, 0.095]), 0.08],
    [ellipsoid([0, 0.97, -0.005], [fem ? 0.172 : 0.158, 0.115, 0.105]), 0.07],
    [mirrored(capsule([sh + 0.005, 1.38, -0.025], [0.215, 1.12, -0.035], 0.046, 0.037)), 0.02],
    [mirrored(capsule([0.215, 1.12, -0.035], [0.235, 0.885, 0.0], 0.036, 0.027)), 0.015],
    [mirrored(ellipsoid([0.238, 0.82, 0.012], [0.02, 0.054, 0.038])), 0.02],
    [mirrored(capsule([0.236, 0.86, 0.035], [0.226, 0.815, 0.055], 0.011, 0.009)), 0.01],
  ];
  if (fem) parts.push([mirrored(ellipsoid([0.058, 1.265, 0.05], [0.06, 0.058, 0.055])), 0.045]);
  // A headscarf's drape over the chest, blended in widely (a narrow blend left a crease).
  if (p.hair.style === 'headscarf')
    parts.push([capsule([0, 1.5, -0.015], [0, 1.36, -0.005], 0.07, 0.16), 0.09], [ellipsoid([0, 1.3, 0.07], [0.1, 0.08, 0.035]), 0.07]);
  if (fullBody) {
    parts.push(
      [mirrored(capsule([0.088, 0.93, 0], [0.094, 0.51, 0.005], 0.08, 0.054)), 0.04],
      [mirrored(capsule([0.094, 0.51, 0.005], [0.1, 0.1, -0.015], 0.052, 0.038)), 0.02],
      [mirrored(roundBox([0.1, 0.045, 0.035], [0.045, 0.045, 0.115], 0.035)), 0.03],
    );
  }
  const wrinkles = folds(sleeveEnd(p.outfit.kind));
  return (x, y, z) => {
    let d = parts[0]![0](x, y, z);
    for (let i = 1; i < parts.length; i++) d = smin(d, parts[i]![0](x, y, z), parts[i]![1]);
    return d < 0.01 && d > -0.01 ? d - wrinkles(x, y, z) : d;
  };
}

/**
 * Soft folds in the clothes (a few millimetres, metres long: the grid is 8–10 mm): vertical
 * folds gathering towards the waist, drag folds from the armpits across the chest's sides, and
 * rings at the inside of the elbows for long sleeves.
 */
function folds(sleeve: number): Sdf {
  return (x, y, z) => {
    const ax = Math.abs(x);
    const torso = (1 - smoothstep(1.18, 1.3, y)) * smoothstep(0.99, 1.06, y) * (1 - smoothstep(0.1, 0.15, ax));
    const v = 0.6 * Math.sin(x * 48 + 1.4 * Math.sin(y * 11 + x * 5)) + 0.4 * Math.sin(x * 83 + 1.7 - y * 9);
    const side =
      smoothstep(0.07, 0.13, ax) *
      (1 - smoothstep(0.15, 0.17, ax)) *
      smoothstep(1.17, 1.25, y) *
      (1 - smoothstep(1.33, 1.37, y)) *
      smoothstep(-0.02, 0.04, z);
    const drag = Math.sin((y - ax * 0.9) * 75);
    const elbow = sleeve < 1.1 ? smoothstep(0.18, 0.2, ax) * smoothstep(1.03, 1.08, y) * (1 - smoothstep(1.16, 1.22, y)) : 0;
    const rings = Math.sin(y * 120 + x * 20);
    return 0.0022 * torso * v + 0.0016 * side * drag + 0.0017 * elbow * rings;
  };
}

/** Where colours change: the mesh is cut along the zero line of each, so the edges are sharp. */
export function bodyEdges(p: Person, fullBody: boolean): Field[] {
  const kind = p.outfit.kind;
  const { neckR, open } = neckline(kind);
  const ring = (q: V3) => Math.hypot(q[0], (q[2] + 0.015) * 1.1);
  // Under a headscarf the neckline is hidden: cutting along it only left a faint ragged line.
  const scarf = p.hair.style === 'headscarf';
  const edges: Field[] = scarf ? [] : [(q) => q[1] + (neckR - ring(q)) * 2 - (1.43 - open(q))];
  if (kind === 'blazer')
    edges.push(
      (q) => Math.abs(q[0]) - (1.46 - q[1]) * 0.3,
      (q) => Math.abs(q[0]) - (1.46 - q[1]) * 0.3 - 0.028,
      (q) => q[1] - 1.11,
    );
  if (kind === 'sweater')
    edges.push(
      (q) => ring(q) - (neckR + 0.014),
      (q) => q[1] - 1.405,
    );
  edges.push((q) => q[1] - sleeveEnd(kind));
  if (scarf) edges.push(scarfEdge);
  if (fullBody)
    edges.push(
      (q) => q[1] - 0.985,
      (q) => q[1] - 0.968,
      (q) => q[1] - 0.1025,
      (q) => q[1] - 0.02,
    );
  return edges;
}

/** A headscarf's drape over the shoulders: a rounded edge in front view, not a square cut. */
const scarfEdge = (q: V3) => Math.hypot(Math.abs(q[0]) / 0.25, Math.max(0, 1.56 - q[1]) / 0.235) - 1;

const sleeveEnd = (kind: Outfit) => (kind === 'tee' ? 1.2 : 0.905);

function neckline(kind: Outfit): { neckR: number; open: (q: V3) => number } {
  const neckR = kind === 'tee' || kind === 'blouse' ? 0.078 : kind === 'vneck' ? 0.085 : 0.066;
  const open = (q: V3) => {
    const front = smoothstep(0, 0.06, q[2]);
    if (kind === 'vneck' || kind === 'blazer') return Math.max(0, 0.12 - Math.abs(q[0]) * 1.6) * front;
    // A shirt's top button undone: a short V under the collar.
    if (kind === 'shirt') return Math.max(0, 0.07 - Math.abs(q[0]) * 1.1) * front;
    return kind === 'tee' || kind === 'blouse' ? 0.03 * front : 0;
  };
  return { neckR, open };
}

/** Colours with hard edges (the mesh is cut along them, see bodyEdges), shaded by cheap occlusion. */
export function bodyColor(p: Person, fullBody: boolean, sdf: Sdf): (q: V3, n: V3) => V3 {
  const skin = linear(p.skin);
  const main = linear(p.outfit.main);
  const accent = linear(p.outfit.accent);
  const trousers = linear(p.outfit.trousers ?? '#2d3038');
  const shoes = linear(p.outfit.shoes ?? '#222226');
  const belt = linear('#3a2a20');
  const scarf = p.hair.style === 'headscarf' ? linear(p.hair.color) : null;
  const kind = p.outfit.kind;
  const { neckR, open } = neckline(kind);
  const step = (edge: number, x: number) => (x < edge ? 0 : 1);
  return (q, n) => {
    const [x, y, z] = q;
    const ax = Math.abs(x);
    const armness = smoothstep(0.15, 0.19, ax) * (1 - smoothstep(1.36, 1.4, y));
    // Distance from the neck's axis: necklines are rings around it, V-necks dip in front.
    const r = Math.hypot(x, (z + 0.015) * 1.1);
    const isNeck = step(1.43 - open(q), y + (neckR - r) * 2);
    let c: V3 = main;
    if (kind === 'blazer') {
      const v = (1.46 - y) * 0.3;
      const below = step(1.11, y) * smoothstep(0.0, 0.02, z);
      c = lerp3(c, lerp3(main, [0, 0, 0], 0.28), (1 - step(v + 0.028, ax)) * below);
      c = lerp3(c, accent, (1 - step(v, ax)) * below);
    }
    // Collars and ribbed neck bands: a ring just outside the neck, a shade of the cloth.
    const collar = (1 - step(neckR + 0.014, r)) * step(1.405, y);
    if (kind === 'sweater') c = lerp3(c, accent, collar);
    c = lerp3(c, skin, isNeck);
    // Sleeves end at the wrist (above the elbow for a T-shirt).
    c = lerp3(c, skin, armness * (1 - step(sleeveEnd(kind), y)));
    if (scarf) c = lerp3(c, scarf, 1 - step(0, scarfEdge(q)));
    if (fullBody) {
      const legs = (1 - step(0.985, y)) * (1 - armness);
      c = lerp3(c, y > 0.968 ? belt : trousers, legs);
      c = lerp3(c, shoes, 1 - step(0.1025, y));
      c = lerp3(c, lerp3(shoes, [0, 0, 0], 0.4), 1 - step(0.02, y));
    }
    const o = sdf(x + n[0] * 0.02, y + n[1] * 0.02, z + n[2] * 0.02) / 0.02;
    // The neck darkens gradually towards the jaw (the head's underside is in shade), so the
    // two meet without a band.
    const underJaw = 1 - 0.14 * (scarf ? 0 : isNeck) * smoothstep(1.44, 1.5, y);
    const ao = Math.max(0.5, Math.min(1, 0.45 + 0.55 * o)) * underJaw;
    return [c[0] * ao, c[1] * ao, c[2] * ao];
  };
}

export function buildBody(p: Person, fullBody: boolean, cell: number): MeshData {
  const sdf = bodySdf(p, fullBody);
  const min: V3 = [-0.3, fullBody ? -0.01 : 0.98, -0.16];
  const max: V3 = [0.3, 1.56, 0.2];
  const color = bodyColor(p, fullBody, sdf);
  const surface = surfaceNets(sdf, min, max, cell, color);
  return merge(cutAll(surface, bodyEdges(p, fullBody), color), ...bodyTrims(p, surface, sdf, color));
}

/** Edges with thickness (trims.ts): the neckline's hem or collar, a blazer's lapels, the cuffs. */
function bodyTrims(p: Person, surface: MeshData, sdf: Sdf, color: (q: V3, n: V3) => V3): MeshData[] {
  const kind = p.outfit.kind;
  const { neckR, open } = neckline(kind);
  const neck: Field = (q) => q[1] + (neckR - Math.hypot(q[0], (q[2] + 0.015) * 1.1)) * 2 - (1.43 - open(q));
  const out: MeshData[] = [];
  // Under a headscarf the neckline is hidden. A shirt's collar stops short of the V's point.
  if (p.hair.style !== 'headscarf')
    out.push(trim(surface, sdf, neck, -1, neckTrim(kind), color, (q) => kind !== 'shirt' || q[2] < 0.02 || q[1] > 1.418));
  if (kind === 'blazer')
    out.push(
      trim(
        surface,
        sdf,
        (q) => Math.abs(q[0]) - (1.46 - q[1]) * 0.3,
        1,
        LAPEL,
        color,
        (q) => q[1] > 1.115 && q[2] > 0.03 && neck(q) < -0.004,
      ),
    );
  // A shirt's placket: its edge stands a little off the shirt; buttons down it.
  if (kind === 'shirt') {
    out.push(
      trim(
        surface,
        sdf,
        (q) => q[0] - 0.011,
        -1,
        LAPEL,
        color,
        (q) => q[2] > 0.03 && neck(q) < -0.006,
      ),
    );
    out.push(buttons(sdf, [1.372, 1.287, 1.202, 1.117, 1.032], lerp3(linear(p.outfit.main), [0.35, 0.32, 0.3], 0.3)));
  }
  const cuff = sleeveEnd(kind);
  out.push(
    trim(
      surface,
      sdf,
      (q) => q[1] - cuff,
      1,
      HEM,
      color,
      (q) => Math.abs(q[0]) > (kind === 'tee' ? 0.185 : 0.19),
    ),
  );
  return out;
}
