// The zero lines of a field on a triangle mesh, as polylines: where a neckline, a lapel or a
// cuff runs on the body. Each triangle the line crosses gives one segment (its two crossing
// points, shared with the neighbouring triangles through the edge), chained end to end.
import type { MeshData } from './mesh';
import { gradient, type Sdf, type V3 } from './sdf';
import type { Field } from './cut';

export function edgeLines(m: MeshData, field: Field): V3[][] {
  const P = m.positions;
  const f = Array.from({ length: P.length / 3 }, (_, i) => field([P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!]));
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  const point = new Map<string, V3>();
  const links = new Map<string, string[]>();
  const cross = (a: number, b: number) => {
    const k = key(a, b);
    if (!point.has(k)) {
      const t = f[a]! / (f[a]! - f[b]!);
      point.set(k, [0, 1, 2].map((c) => P[a * 3 + c]! + (P[b * 3 + c]! - P[a * 3 + c]!) * t) as V3);
    }
    return k;
  };
  const link = (a: string, b: string) => {
    links.set(a, [...(links.get(a) ?? []), b]);
    links.set(b, [...(links.get(b) ?? []), a]);
  };
  for (let i = 0; i < m.indices.length; i += 3) {
    const tri = [m.indices[i]!, m.indices[i + 1]!, m.indices[i + 2]!];
    const ends: string[] = [];
    for (let e = 0; e < 3; e++) {
      const a = tri[e]!,
        b = tri[(e + 1) % 3]!;
      if (f[a]! < 0 !== f[b]! < 0) ends.push(cross(a, b));
    }
    if (ends.length === 2) link(ends[0]!, ends[1]!);
  }
  // Chain: start from line ends (one link) first, then what is left are closed loops.
  const seen = new Set<string>();
  const lines: V3[][] = [];
  const walk = (start: string) => {
    const line: V3[] = [];
    let at: string | undefined = start;
    while (at && !seen.has(at)) {
      seen.add(at);
      line.push(point.get(at)!);
      at = links.get(at)!.find((n) => !seen.has(n));
    }
    if (line.length > 2) lines.push(line);
  };
  for (const [k, l] of links) if (l.length === 1 && !seen.has(k)) walk(k);
  for (const k of links.keys()) if (!seen.has(k)) walk(k);
  return lines;
}

/** Moves a point onto the surface of `sdf` (a few Newton steps). */
export function project(sdf: Sdf, p: V3): V3 {
  let q = p;
  for (let i = 0; i < 4; i++) {
    const d = sdf(q[0], q[1], q[2]);
    const g = gradient(sdf, q[0], q[1], q[2]);
    q = [q[0] - g[0] * d, q[1] - g[1] * d, q[2] - g[2] * d];
  }
  return q;
}

/** A polyline resampled at even spacing (a few millimetres), then smoothed and put back on the surface. */
export function resample(line: V3[], spacing: number, sdf: Sdf): V3[] {
  const lengths = [0];
  for (let i = 1; i < line.length; i++)
    lengths.push(lengths[i - 1]! + Math.hypot(...([0, 1, 2].map((c) => line[i]![c]! - line[i - 1]![c]!) as V3)));
  const total = lengths[lengths.length - 1]!;
  const n = Math.max(2, Math.round(total / spacing) + 1);
  let out: V3[] = [];
  let j = 0;
  for (let s = 0; s < n; s++) {
    const at = (s / (n - 1)) * total;
    while (j < lengths.length - 2 && lengths[j + 1]! < at) j++;
    const t = (at - lengths[j]!) / Math.max(1e-9, lengths[j + 1]! - lengths[j]!);
    out.push([0, 1, 2].map((c) => line[j]![c]! + (line[j + 1]![c]! - line[j]![c]!) * Math.min(1, t)) as V3);
  }
  for (let pass = 0; pass < 3; pass++)
    out = out.map((p, i) =>
      i === 0 || i === out.length - 1 ? p : ([0, 1, 2].map((c) => (out[i - 1]![c]! + 2 * p[c]! + out[i + 1]![c]!) / 4) as V3),
    );
  return out.map((p) => project(sdf, p));
}
