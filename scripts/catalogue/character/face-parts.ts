// Parts of the 3D face built as small parametric meshes on top of the skin: eyelids (with the
// blink target) and brows. The mouth is in mouth3d.ts, the eyeballs in eyes3d.ts.
import type { Person } from '../people';
import { computeNormals, linear, lerp3, type MeshData } from '../mesh/mesh';
import { gradient, raycast, type Sdf, type V3 } from '../mesh/sdf';

const add = (a: V3, b: V3, k = 1): V3 => [a[0] + b[0] * k, a[1] + b[1] * k, a[2] + b[2] * k];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** A grid of rows × cols vertices, triangulated; `at(r, c)` gives position and colour. */
export function grid(rows: number, cols: number, at: (r: number, c: number) => { p: V3; color: V3 }, flip = false): MeshData {
  const m: MeshData = { positions: [], normals: [], colors: [], indices: [] };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const { p, color } = at(r, c);
      m.positions.push(...p);
      m.colors.push(...color);
    }
  for (let r = 0; r < rows - 1; r++)
    for (let c = 0; c < cols - 1; c++) {
      const a = r * cols + c,
        b = a + 1,
        d = a + cols,
        e = d + 1;
      if (flip) m.indices.push(a, b, d, b, e, d);
      else m.indices.push(a, d, b, b, d, e);
    }
  computeNormals(m);
  return m;
}

/** Makes every triangle face away from `inside` (a point, or a function giving the outward direction). */
export function orient(m: MeshData, outward: (p: V3) => V3): MeshData {
  const P = m.positions;
  let agree = 0;
  for (let i = 0; i < m.indices.length; i += 3) {
    const [a, b, c] = [m.indices[i]! * 3, m.indices[i + 1]! * 3, m.indices[i + 2]! * 3];
    const e1: V3 = [P[b]! - P[a]!, P[b + 1]! - P[a + 1]!, P[b + 2]! - P[a + 2]!];
    const e2: V3 = [P[c]! - P[a]!, P[c + 1]! - P[a + 1]!, P[c + 2]! - P[a + 2]!];
    const n = cross(e1, e2);
    const o = outward([P[a]!, P[a + 1]!, P[a + 2]!]);
    agree += Math.sign(n[0] * o[0] + n[1] * o[1] + n[2] * o[2]);
  }
  if (agree < 0) {
    for (let i = 0; i < m.indices.length; i += 3) [m.indices[i + 1], m.indices[i + 2]] = [m.indices[i + 2]!, m.indices[i + 1]!];
    computeNormals(m);
  }
  return m;
}

export const awayFrom =
  (c: V3) =>
  (p: V3): V3 =>
    sub(p, c);

/** Points of a grid as positions only, for computing a morph target against the base. */
export function gridPositions(rows: number, cols: number, at: (r: number, c: number) => V3): number[] {
  const out: number[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(...at(r, c));
  return out;
}

// ── Eyelids ───────────────────────────────────────────────────────────────────────────────

const dir = (alpha: number, elev: number): V3 => [Math.sin(alpha) * Math.cos(elev), Math.sin(elev), Math.cos(alpha) * Math.cos(elev)];

export interface Lids {
  mesh: MeshData;
  /** Positions with the eyes closed (the blink target). */
  closed: number[];
}

/**
 * How far from `centre` along `d` the skin's outer surface is: the last crossing from inside the
 * skin to outside between `from` and `to`; null where the ray meets no skin (the eye's opening).
 */
function surfaceAlong(sdf: Sdf, centre: V3, d: V3, from: number, to: number): number | null {
  const at = (t: number) => sdf(centre[0] + d[0] * t, centre[1] + d[1] * t, centre[2] + d[2] * t);
  const steps = 40;
  let found: number | null = null;
  let prev = at(from);
  for (let i = 1; i <= steps; i++) {
    const t = from + ((to - from) * i) / steps;
    const v = at(t);
    if (prev < 0 && v >= 0) {
      let lo = t - (to - from) / steps,
        hi = t;
      for (let j = 0; j < 12; j++) {
        const mid = (lo + hi) / 2;
        if (at(mid) < 0) lo = mid;
        else hi = mid;
      }
      found = hi;
    }
    prev = v;
  }
  return found;
}

/**
 * The lids round the eyeball: the lash rows at the opening, and from there they lie down onto
 * the skin (their last row just under its surface), so a lid never stands off the face as a rim.
 */
export function eyelids(p: Person, sdf: Sdf, centre: V3, r: number, side: number, skin: V3, skinColor: (q: V3, n: V3) => V3): Lids {
  const lash = linear('#1b130e');
  const lid = lerp3(skin, linear('#b07060'), 0.08);
  const waterline = lerp3(skin, linear('#c07a70'), 0.35);
  const cols = 23;
  const alphaAt = (c: number) => -1.45 + (c / (cols - 1)) * 2.9;
  // Rows from the third outwards blend from the lid's sphere to just under the skin (the last).
  const onto = (a: number, e: number, row: number, rows: number, rad: number): V3 => {
    const d = dir(a, e);
    const onSphere = r * rad;
    const k = row < 2 ? 0 : Math.min(1, (row - 1) / (rows - 2));
    const skinAt = k > 0 ? surfaceAlong(sdf, centre, d, r * 0.9, r * 2.2) : null;
    return add(centre, d, skinAt === null ? onSphere : onSphere + (skinAt - 0.001 - onSphere) * k);
  };
  const upperEdge = (a: number) => 0.6 * Math.cos(1.1 * a) - 0.12 + 0.04 * a * side;
  const lowerEdge = (a: number) => -0.38 * Math.cos(1.1 * a) + 0.06 + 0.03 * a * side;
  // Outer rows take the skin's own colour where they lie (its shading and blush): no seam.
  const paint = (color: V3 | null, q: V3): V3 => color ?? skinColor(q, norm(sub(q, centre)));
  const upperRows: { de: number; rad: number; color: V3 | null }[] = [
    { de: 0, rad: 1.02, color: lash },
    { de: 0.06, rad: 1.11, color: lash },
    { de: 0.14, rad: 1.15, color: lid },
    { de: 0.3, rad: 1.16, color: lerp3(lid, [0.25, 0.12, 0.1], 0.35) },
    { de: 0.4, rad: 1.16, color: null },
    { de: 0.8, rad: 1.16, color: null },
    { de: 1.3, rad: 1.16, color: null },
  ];
  const upperAt = (closed: boolean) => (row: number, c: number) => {
    const a = alphaAt(c);
    const edge = closed ? Math.max(lowerEdge(a) + 0.015, -0.25) : upperEdge(a);
    const top = 1.45;
    const k = upperRows[row]!.de / 1.3;
    const e = row === 0 ? edge : Math.min(top, edge + (top - edge) * k + (row < 3 ? upperRows[row]!.de * 0.5 : 0));
    return onto(a, e, row, upperRows.length, upperRows[row]!.rad);
  };
  const lowerRows: { de: number; rad: number; color: V3 | null }[] = [
    { de: 0, rad: 1.02, color: waterline },
    { de: 0.06, rad: 1.1, color: lerp3(lash, skin, 0.55) },
    { de: 0.2, rad: 1.12, color: null },
    { de: 0.45, rad: 1.14, color: null },
  ];
  const lowerAt = (closed: boolean) => (row: number, c: number) => {
    const a = alphaAt(c);
    const edge = lowerEdge(a) + (closed ? 0.03 : 0);
    const e = Math.max(-1.3, edge - lowerRows[row]!.de);
    return onto(a, e, row, lowerRows.length, lowerRows[row]!.rad);
  };
  const upper = orient(
    grid(upperRows.length, cols, (row, c) => {
      const q = upperAt(false)(row, c);
      return { p: q, color: paint(upperRows[row]!.color, q) };
    }),
    awayFrom(centre),
  );
  const lower = orient(
    grid(lowerRows.length, cols, (row, c) => {
      const q = lowerAt(false)(row, c);
      return { p: q, color: paint(lowerRows[row]!.color, q) };
    }),
    awayFrom(centre),
  );
  const mesh: MeshData = {
    positions: [...upper.positions, ...lower.positions],
    normals: [...upper.normals, ...lower.normals],
    colors: [...upper.colors, ...lower.colors],
    indices: [...upper.indices, ...lower.indices.map((i) => i + upper.positions.length / 3)],
  };
  const closed = [...gridPositions(upperRows.length, cols, upperAt(true)), ...gridPositions(lowerRows.length, cols, lowerAt(true))];
  return { mesh, closed };
}

// ── Brows ─────────────────────────────────────────────────────────────────────────────────

function catmull(points: [number, number][], samples: number): [number, number][] {
  const out: [number, number][] = [];
  const n = points.length;
  for (let s = 0; s < samples; s++) {
    const t = (s / (samples - 1)) * (n - 1);
    const i = Math.min(n - 2, Math.floor(t));
    const u = t - i;
    const p0 = points[Math.max(0, i - 1)]!,
      p1 = points[i]!,
      p2 = points[i + 1]!,
      p3 = points[Math.min(n - 1, i + 2)]!;
    const f = (a: number, b: number, c: number, d: number) =>
      0.5 * (2 * b + (-a + c) * u + (2 * a - 5 * b + 4 * c - d) * u * u + (-a + 3 * b - 3 * c + d) * u * u * u);
    out.push([f(p0[0], p1[0], p2[0], p3[0]), f(p0[1], p1[1], p2[1], p3[1])]);
  }
  return out;
}

export function onSurface(sdf: Sdf, x: number, y: number): { p: V3; n: V3 } {
  const hit = raycast(sdf, [x, y, 0.25], [0, 0, -1], 0.4) ?? [x, y, 0.05];
  return { p: hit, n: gradient(sdf, hit[0], hit[1], hit[2]) };
}

export function brow(p: Person, sdf: Sdf, curve: [number, number][]): MeshData {
  const pts = catmull(curve, 14);
  const color = linear(p.brow.color);
  const base = pts.map(([x, y]) => onSurface(sdf, x, y));
  const inner = Math.abs(curve[0]![0]) < Math.abs(curve[curve.length - 1]![0]);
  const m = grid(4, pts.length, (row, i) => {
    const { p: P, n } = base[i]!;
    const next = base[Math.min(pts.length - 1, i + 1)]!.p,
      prev = base[Math.max(0, i - 1)]!.p;
    const t = norm(sub(next, prev));
    const b = norm(cross(n, t));
    const s = inner ? i / (pts.length - 1) : 1 - i / (pts.length - 1);
    const width = (0.0052 - 0.0032 * s * s) * p.brow.weight;
    const rows = [
      [-0.5, 0.0005],
      [-0.3, 0.0017],
      [0.3, 0.0017],
      [0.5, 0.0005],
    ] as const;
    const [k, h] = rows[row]!;
    return { p: add(add(P, b, width * k), n, h), color: row === 0 || row === 3 ? lerp3(color, [0.3, 0.2, 0.15], 0.15) : color };
  });
  // Texture coordinates: u along the brow from its inner end, v across it (browTexture).
  m.uvs = [];
  for (let row = 0; row < 4; row++)
    for (let i = 0; i < pts.length; i++) m.uvs.push(inner ? i / (pts.length - 1) : 1 - i / (pts.length - 1), row / 3);
  return orient(m, () => [0, 0.2, 1]);
}
