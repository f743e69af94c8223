// Bodies as distance fields in world space: neck, shoulders, chest, arms and hands; legs and
// feet for full-body characters. Clothes are vertex colours by region.
import { cutAll, type Field } from '../mesh/cut';
import type { Outfit, Person } from '../people';
import { linear, lerp3, type MeshData } from '../mesh/mesh';
import { capsule, ellipsoid, roundBox, smin, type Sdf, type V3 } from '../mesh/sdf';
import { surfaceNets } from '../mesh/surface-nets';

const mirrored = (s: Sdf): Sdf => (x, y, z) => s(Math.abs(x), y, z);

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
  if (p.hair.style === 'headscarf') parts.push([capsule([0, 1.5, -0.015], [0, 1.36, -0.005], 0.07, 0.16), 0.05], [ellipsoid([0, 1.3, 0.07], [0.1, 0.08, 0.035]), 0.04]);
  if (fullBody) {
    parts.push(
      [mirrored(capsule([0.088, 0.93, 0], [0.094, 0.51, 0.005], 0.08, 0.054)), 0.04],
      [mirrored(capsule([0.094, 0.51, 0.005], [0.1, 0.1, -0.015], 0.052, 0.038)), 0.02],
      [mirrored(roundBox([0.1, 0.045, 0.035], [0.045, 0.045, 0.115], 0.035)), 0.03],
    );
  }
  return (x, y, z) => {
    let d = parts[0]![0](x, y, z);
    for (let i = 1; i < parts.length; i++) d = smin(d, parts[i]![0](x, y, z), parts[i]![1]);
    return d;
  };
}

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Where colours change: the mesh is cut along the zero line of each, so the edges are sharp. */
export function bodyEdges(p: Person, fullBody: boolean): Field[] {
  const kind = p.outfit.kind;
  const { neckR, open } = neckline(kind);
  const ring = (q: V3) => Math.hypot(q[0], (q[2] + 0.015) * 1.1);
  // Under a headscarf the neckline is hidden: cutting along it only left a faint ragged line.
  const scarf = p.hair.style === 'headscarf';
  const edges: Field[] = scarf ? [] : [(q) => q[1] + (neckR - ring(q)) * 2 - (1.43 - open(q))];
  if (kind === 'blazer') edges.push((q) => Math.abs(q[0]) - (1.46 - q[1]) * 0.3, (q) => Math.abs(q[0]) - (1.46 - q[1]) * 0.3 - 0.028, (q) => q[1] - 1.11);
  if (kind === 'shirt') edges.push((q) => Math.abs(q[0]) - 0.005);
  if (kind === 'sweater' || kind === 'shirt') edges.push((q) => ring(q) - (neckR + 0.014), (q) => q[1] - 1.405);
  edges.push((q) => q[1] - sleeveEnd(kind));
  if (scarf) edges.push(scarfEdge);
  if (fullBody) edges.push((q) => q[1] - 0.985, (q) => q[1] - 0.968, (q) => q[1] - 0.1025, (q) => q[1] - 0.02);
  return edges;
}

/** A headscarf's drape over the shoulders: a rounded edge in front view, not a square cut. */
const scarfEdge = (q: V3) => Math.hypot(Math.abs(q[0]) / 0.25, Math.max(0, 1.56 - q[1]) / 0.235) - 1;

const sleeveEnd = (kind: Outfit) => (kind === 'tee' ? 1.2 : 0.905);

function neckline(kind: Outfit): { neckR: number; open: (q: V3) => number } {
  const neckR = kind === 'tee' || kind === 'blouse' ? 0.078 : kind === 'vneck' ? 0.085 : 0.066;
  const open = (q: V3) => {
    const front = smoothstep(0, 0.06, q[2]);
    return kind === 'vneck' || kind === 'blazer' ? Math.max(0, 0.12 - Math.abs(q[0]) * 1.6) * front : kind === 'tee' || kind === 'blouse' ? 0.03 * front : 0;
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
    if (kind === 'shirt') c = lerp3(c, lerp3(main, [0, 0, 0], 0.12), (1 - step(0.005, ax)) * smoothstep(0.03, 0.05, z));
    // Collars and ribbed neck bands: a ring just outside the neck, a shade of the cloth.
    const collar = (1 - step(neckR + 0.014, r)) * step(1.405, y);
    if (kind === 'sweater') c = lerp3(c, accent, collar);
    if (kind === 'shirt') c = lerp3(c, lerp3(main, [0, 0, 0], 0.1), collar);
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
    const ao = Math.max(0.5, Math.min(1, 0.45 + 0.55 * o));
    return [c[0] * ao, c[1] * ao, c[2] * ao];
  };
}

export function buildBody(p: Person, fullBody: boolean, cell: number): MeshData {
  const sdf = bodySdf(p, fullBody);
  const min: V3 = [-0.3, fullBody ? -0.01 : 0.98, -0.16];
  const max: V3 = [0.3, 1.56, 0.2];
  const color = bodyColor(p, fullBody, sdf);
  return cutAll(surfaceNets(sdf, min, max, cell, color), bodyEdges(p, fullBody), color);
}
