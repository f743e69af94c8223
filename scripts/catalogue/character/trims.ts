// Clothes' edges with thickness: a neckline's rolled hem, a shirt's stand collar, a lapel's edge,
// a sleeve's cuff. Each is a narrow strip laid along the zero line of its colour edge on the
// body (edgeLines) with a cross-section (rows at a distance across the edge, lifted off the
// surface): the strip's own normals shade it as a rounded edge, which colour alone could not.
// The body's grid (8–10 mm) is far too coarse to carry a 4 mm hem in the distance field.
import { edgeLines, project, resample } from '../mesh/edge-lines';
import type { Field } from '../mesh/cut';
import { lerp3, merge, type MeshData } from '../mesh/mesh';
import { gradient, type Sdf, type V3 } from '../mesh/sdf';
import type { Outfit } from '../people';
import { grid, orient } from './face-parts';

/** A row of the cross-section: `across` metres onto the cloth (negative: over the other side), lifted `lift`. */
export interface Row {
  across: number;
  lift: number;
  /** Darker (0 … 1) in a fold. */
  shade?: number;
}

/** A rolled hem: rises from the edge, rounds over, settles onto the cloth. */
export const HEM: Row[] = [
  { across: -0.0005, lift: 0.0002 },
  { across: 0.0015, lift: 0.0026 },
  { across: 0.005, lift: 0.0034 },
  { across: 0.009, lift: 0.0026 },
  { across: 0.013, lift: 0.0008, shade: 0.25 },
  { across: 0.016, lift: 0 },
];

/** A stand collar: from the neckline up round the neck, clear of it, its top edge rolled over. */
export const STAND_COLLAR: Row[] = [
  { across: 0.012, lift: 0 },
  { across: 0.004, lift: 0.0035, shade: 0.15 },
  { across: -0.004, lift: 0.0062 },
  { across: -0.016, lift: 0.0068 },
  { across: -0.026, lift: 0.0062 },
  { across: -0.03, lift: 0.0038, shade: 0.1 },
  { across: -0.027, lift: 0.0012, shade: 0.5 },
];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (a: V3) => Math.hypot(a[0], a[1], a[2]);

/**
 * A strip along the zero lines of `edge` on the body (only where `keep` holds), `rows` across
 * it towards the side where the edge field is `towards` (+1 or −1); coloured by `color` taken
 * 8 mm onto that side.
 */
export function trim(
  body: MeshData,
  sdf: Sdf,
  edge: Field,
  towards: 1 | -1,
  rows: Row[],
  color: (q: V3, n: V3) => V3,
  keep: (q: V3) => boolean = () => true,
): MeshData {
  const parts: MeshData[] = [];
  for (const raw of edgeLines(body, edge)) {
    const closed = len(sub(raw[0]!, raw[raw.length - 1]!)) < 0.012;
    // Split into runs where `keep` holds.
    const runs: V3[][] = [[]];
    for (const p of closed ? [...raw, raw[0]!] : raw) {
      if (keep(p)) runs[runs.length - 1]!.push(p);
      else if (runs[runs.length - 1]!.length) runs.push([]);
    }
    for (const run of runs) {
      if (run.length < 3) continue;
      const pts = resample(run, 0.004, sdf);
      if (pts.length < 3) continue;
      const sideAt = (p: V3): V3 => {
        const n = gradient(sdf, p[0], p[1], p[2]);
        const e = 1e-4;
        const g: V3 = [0, 1, 2].map((c) => {
          const a = [...p] as V3,
            b = [...p] as V3;
          a[c] += e;
          b[c] -= e;
          return edge(a) - edge(b);
        }) as V3;
        const dot = g[0] * n[0] + g[1] * n[1] + g[2] * n[2];
        const t: V3 = [g[0] - n[0] * dot, g[1] - n[1] * dot, g[2] - n[2] * dot];
        const l = len(t) || 1;
        return [(towards * t[0]) / l, (towards * t[1]) / l, (towards * t[2]) / l];
      };
      const frames = pts.map((p) => {
        const s = sideAt(p);
        const onCloth = project(sdf, [p[0] + s[0] * 0.008, p[1] + s[1] * 0.008, p[2] + s[2] * 0.008]);
        return { p, s, c: color(onCloth, gradient(sdf, ...onCloth)) };
      });
      const m = grid(rows.length, pts.length, (r, i) => {
        const { p, s, c } = frames[i]!;
        const row = rows[r]!;
        const q = project(sdf, [p[0] + s[0] * row.across, p[1] + s[1] * row.across, p[2] + s[2] * row.across]);
        const n = gradient(sdf, q[0], q[1], q[2]);
        return {
          p: [q[0] + n[0] * row.lift, q[1] + n[1] * row.lift, q[2] + n[2] * row.lift],
          color: lerp3(c, [0, 0, 0], 0.35 * (row.shade ?? 0)),
        };
      });
      parts.push(orient(m, (q) => gradient(sdf, q[0], q[1], q[2])));
    }
  }
  return parts.length ? merge(...parts) : { positions: [], normals: [], colors: [], indices: [] };
}

/** A lapel's edge: thinner than a hem, so the lapel reads as a layer of cloth over the top under it. */
export const LAPEL: Row[] = [
  { across: -0.0005, lift: 0.0002 },
  { across: 0.0015, lift: 0.0028 },
  { across: 0.006, lift: 0.003 },
  { across: 0.011, lift: 0 },
];

/** The neckline's trim for an outfit: a stand collar on a shirt, a rolled hem otherwise. */
export const neckTrim = (kind: Outfit): Row[] => (kind === 'shirt' ? STAND_COLLAR : HEM);

/** Small domed buttons down the front (x = 0) at heights `ys`. */
export function buttons(sdf: Sdf, ys: number[], color: V3): MeshData {
  const parts = ys.map((y) => {
    const c = project(sdf, [0, y, 0.2]);
    const n = gradient(sdf, c[0], c[1], c[2]);
    const u: V3 = [n[2], 0, -n[0]].map((v) => v / (Math.hypot(n[2], n[0]) || 1)) as V3;
    const v: V3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
    const rings = [
      { r: 0, lift: 0.0017, shade: 0 },
      { r: 0.0028, lift: 0.0015, shade: 0.1 },
      { r: 0.0042, lift: 0.0003, shade: 0.35 },
    ];
    const m = grid(rings.length, 13, (row, i) => {
      const a = (i / 12) * 2 * Math.PI,
        ring = rings[row]!;
      const off = [0, 1, 2].map((k) => c[k]! + (u[k]! * Math.cos(a) + v[k]! * Math.sin(a)) * ring.r + n[k]! * ring.lift) as V3;
      return { p: off, color: lerp3(color, [0, 0, 0], ring.shade) };
    });
    return orient(m, () => n);
  });
  return merge(...parts);
}
