// Sharp colour edges on a grid mesh: cut every triangle the zero line of a field crosses, so the
// boundary (a neckline, a lapel, a cuff) becomes a line of vertices with one colour on each side.
// Vertex colours sampled on the grid alone drew such edges as stair-steps (issue 18).
// Each cut point is shared by the two triangles of its edge, so the mesh has no cracks; it is
// doubled (one copy per side) so the colours do not blend across it.
import type { MeshData } from './mesh';
import type { V3 } from './sdf';

export type Field = (q: V3) => number;

export function cutAlong(m: MeshData, field: Field, colorAt: (q: V3, n: V3) => V3): MeshData {
  const P = m.positions,
    N = m.normals;
  const count = P.length / 3;
  const out: MeshData = { positions: [...P], normals: [...N], colors: [...m.colors], indices: [] };
  const f = Array.from({ length: count }, (_, i) => field([P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!]));
  const side = (i: number) => (f[i]! < 0 ? 0 : 1);
  const point = (a: number, b: number, t: number): [V3, V3] => {
    const p: V3 = [0, 0, 0],
      n: V3 = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      p[k] = P[a * 3 + k]! + (P[b * 3 + k]! - P[a * 3 + k]!) * t;
      n[k] = N[a * 3 + k]! + (N[b * 3 + k]! - N[a * 3 + k]!) * t;
    }
    const l = Math.hypot(...n) || 1;
    return [p, [n[0] / l, n[1] / l, n[2] / l]];
  };
  const add = (p: V3, n: V3, c: V3) => {
    out.positions.push(...p);
    out.normals.push(...n);
    out.colors.push(...c);
    return out.positions.length / 3 - 1;
  };
  // Edge (a, b) → the cut point's copies [negative side, positive side].
  const cuts = new Map<string, [number, number]>();
  const cutPoint = (a: number, b: number): [number, number] => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    const known = cuts.get(key);
    if (known) return known;
    const t = f[a]! / (f[a]! - f[b]!);
    const [p, n] = point(a, b, t);
    // Each copy takes the colour a hair's breadth inside its own side.
    const neg = side(a) === 0 ? a : b,
      pos = neg === a ? b : a;
    const tn = neg === a ? Math.max(0, t - 0.05) : Math.min(1, t + 0.05);
    const tp = pos === a ? Math.max(0, t - 0.05) : Math.min(1, t + 0.05);
    const pair: [number, number] = [add(p, n, colorAt(point(a, b, tn)[0], n)), add(p, n, colorAt(point(a, b, tp)[0], n))];
    cuts.set(key, pair);
    return pair;
  };
  const I = m.indices;
  for (let i = 0; i < I.length; i += 3) {
    const tri = [I[i]!, I[i + 1]!, I[i + 2]!];
    const s = tri.map(side);
    if (s[0] === s[1] && s[1] === s[2]) {
      out.indices.push(...tri);
      continue;
    }
    // Rotate so that the lone vertex comes first (the winding is kept).
    const lone = s[0] !== s[1] && s[0] !== s[2] ? 0 : s[1] !== s[0] && s[1] !== s[2] ? 1 : 2;
    const a = tri[lone]!,
      b = tri[(lone + 1) % 3]!,
      c = tri[(lone + 2) % 3]!;
    const ab = cutPoint(a, b),
      ca = cutPoint(c, a);
    const la = side(a),
      other = 1 - la;
    out.indices.push(a, ab[la]!, ca[la]!);
    out.indices.push(ab[other]!, b, c, ab[other]!, c, ca[other]!);
  }
  return out;
}

/** Cuts along several fields, one after the other. */
export function cutAll(m: MeshData, fields: Field[], colorAt: (q: V3, n: V3) => V3): MeshData {
  return fields.reduce((mesh, field) => cutAlong(mesh, field, colorAt), m);
}
