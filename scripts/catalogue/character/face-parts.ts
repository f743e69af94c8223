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
 * How far from `centre` along `d` the skin's outer surface is: the first crossing from inside the
 * skin to outside between `from` and `to` (not the last: beside the nose the ray runs on into
 * the bridge); null where the ray meets no skin (the eye's opening).
 */
function surfaceAlong(sdf: Sdf, centre: V3, d: V3, from: number, to: number): number | null {
  const at = (t: number) => sdf(centre[0] + d[0] * t, centre[1] + d[1] * t, centre[2] + d[2] * t);
  const steps = 40;
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
      return hi;
    }
    prev = v;
  }
  return null;
}

/**
 * The lids round the eyeball: the lash rows at the opening, and from there they lie onto the
 * skin. The socket's rim is too sharp for the skin's grid and meshes ragged, so the lids lie
 * just over it, on the head without its sockets (`uncut`: the cut skin is always inside it), out
 * to where the socket no longer changes the skin; only there, at their last row and their ends,
 * do they dive under it, so the line where lid meets skin is clean.
 */
export function eyelids(
  p: Person,
  sdf: Sdf,
  uncut: Sdf,
  centre: V3,
  r: number,
  side: number,
  skin: V3,
  skinColor: (q: V3, n: V3) => V3,
): Lids {
  const lash = linear('#1b130e');
  const lid = lerp3(skin, linear('#b07060'), 0.08);
  const waterline = lerp3(skin, linear('#c07a70'), 0.35);
  // The columns reach past the corners of the opening (the socket's rim reaches ±1.4 there).
  const cols = 29;
  const alphaAt = (c: number) => -1.75 + (c / (cols - 1)) * 3.5;
  const skinAlong = (s: Sdf, d: V3) => surfaceAlong(s, centre, d, r * 0.5, r * 2.2);
  /**
   * A point `k` of the way from the lid's sphere onto the skin. Where `over` (0…1), just over the
   * head without sockets, or just under the skin where `under`; elsewhere (beside the nose, where
   * the face stands far in front of the eye and the socket's wall is smooth) under the skin.
   */
  const onto = (a: number, e: number, rad: number, k: number, over: number, under: boolean): V3 => {
    const d = dir(a, e);
    const onSphere = r * rad;
    if (k === 0) return add(centre, d, onSphere);
    const cut = surfaceAlong(sdf, centre, d, r * 0.9, r * 2.2);
    const below = cut === null ? onSphere : onSphere + (cut - 0.001 - onSphere) * k;
    const skinAt = over > 0 ? skinAlong(uncut, d) : null;
    if (skinAt === null) return add(centre, d, below);
    // Only just over the skin and only just under it at the end, so the dive between is shallow
    // (0.4 mm over and 0.3 mm under made a small step that showed as a line where the lid ends).
    const onSkin = skinAt + (under ? -0.0002 : 0.0002);
    const at = below + (Math.max(onSphere + (onSkin - onSphere) * k, onSkin) - below) * over;
    // Never inside the cornea or its catch-light: closed, the lid crosses the front of the eye,
    // where the head without sockets lies behind the cornea (the eye showed through the lid).
    return add(centre, d, Math.max(at, r * 1.05));
  };
  /** The first elevation from `e` in steps of `step` where the socket no longer changes the skin (null: not near). */
  const clear = (a: number, e: number, step: number) => {
    for (let i = 0; i < 30; i++, e += step) {
      const u = skinAlong(uncut, dir(a, e));
      const c = skinAlong(sdf, dir(a, e));
      if (u === null || u > r * 2.1) return null;
      if (c !== null && u - c < 2e-5) return e;
    }
    return null;
  };
  // An almond opening, a little wider and taller than before (the eyes read small and beady):
  // the upper lid just over the iris's top, the lower one over its bottom, the outer corner raised.
  const upperEdge = (a: number) => 0.63 * Math.cos(1.05 * a) - 0.12 + 0.04 * a * side;
  const lowerEdge = (a: number) => -0.44 * Math.cos(1.05 * a) + 0.06 + 0.03 * a * side;
  /** The upper lash line thickens towards the outer corner, as drawn in the portraits. */
  const lashWidth = (a: number) => 1 + 0.45 * Math.max(-0.5, Math.min(1, (a * side) / 1.1));
  // Outer rows take the skin's own colour and normal where they lie (its shading and blush): no seam.
  const skinNormal = (q: V3) => gradient(uncut, q[0], q[1], q[2]);
  const paint = (color: V3 | null, q: V3): V3 => color ?? skinColor(q, skinNormal(q));
  // Rows at the opening (elevation offset `de` from the lid's edge, radius on the lid's sphere,
  // how far onto the skin), then `OUT` rows out to where the socket's rim ends, and one beyond.
  const OUT = 4;
  const upperRows: { de: number; rad: number; k: number; color: V3 | null }[] = [
    // A dark lash line about 2 mm deep (one row of lash colour read as a hairline at portrait sizes).
    { de: 0, rad: 1.02, k: 0, color: lash },
    { de: 0.05, rad: 1.1, k: 0, color: lash },
    { de: 0.11, rad: 1.14, k: 0.05, color: lash },
    { de: 0.17, rad: 1.15, k: 0.2, color: lid },
    { de: 0.27, rad: 1.16, k: 0.4, color: lerp3(lid, [0.25, 0.12, 0.1], 0.35) },
  ];
  const lowerRows: { de: number; rad: number; k: number; color: V3 | null }[] = [
    { de: 0, rad: 1.02, k: 0, color: waterline },
    { de: 0.06, rad: 1.1, k: 0, color: lerp3(lash, skin, 0.55) },
    { de: 0.2, rad: 1.12, k: 0.3, color: null },
  ];
  // A single column that finds no end (a bump in the skin) takes its neighbours'.
  const bridged = (b: (number | null)[]) =>
    b.map((v, c) => v ?? (b[c - 1] != null && b[c + 1] != null ? (b[c - 1]! + b[c + 1]!) / 2 : null));
  const upperClear = bridged(Array.from({ length: cols }, (_, c) => clear(alphaAt(c), upperEdge(alphaAt(c)), 0.025)));
  const lowerClear = bridged(Array.from({ length: cols }, (_, c) => clear(alphaAt(c), lowerEdge(alphaAt(c)), -0.025)));
  // How far each column lies over the socket's rim: where both lids find its end, eased over
  // the neighbouring columns (a sudden change shows as an edge).
  const found = upperClear.map((u, c) => (u !== null && lowerClear[c] !== null ? 1 : 0));
  const over = found.map((_, c) => (found[Math.max(0, c - 1)]! + 2 * found[c]! + found[Math.min(cols - 1, c + 1)]!) / 4);
  const rowCount = (inner: unknown[]) => inner.length + OUT + 1;
  /** Row `row` of a lid in column `c`; `inner(row)` the elevation of the rows at the opening. */
  const lidAt = (
    rows: typeof upperRows,
    inner: (row: number) => number,
    bound: number | null,
    sign: number,
    row: number,
    c: number,
  ): V3 => {
    const a = alphaAt(c);
    const end = c === 0 || c === cols - 1;
    if (row < rows.length) return onto(a, inner(row), rows[row]!.rad, rows[row]!.k, over[c]!, end);
    const from = inner(rows.length - 1);
    const to = from + sign * (bound === null ? 0.3 : Math.min(0.5, Math.max(0.08, (bound - from) * sign)));
    const i = row - rows.length + 1;
    const e = i > OUT ? to + sign * 0.16 : from + ((to - from) * i) / OUT;
    return onto(a, Math.max(-1.3, Math.min(1.45, e)), 1.16, 1, over[c]!, end || i > OUT);
  };
  const upperAt = (closed: boolean) => (row: number, c: number) => {
    const a = alphaAt(c);
    // Closed, the lids meet a little below the middle; the upper lash row's bulge covers the seam.
    const edge = closed ? Math.max(lowerEdge(a) + 0.05, -0.3) : upperEdge(a);
    const inner = (i: number) => {
      const de = upperRows[i]!.de * (i < 3 ? lashWidth(a) : 1);
      return i === 0 ? edge : Math.min(1.45, edge + ((1.45 - edge) * de) / 1.3 + Math.min(de, 0.14) * 0.5);
    };
    return lidAt(upperRows, inner, upperClear[c]!, 1, row, c);
  };
  const lowerAt = (closed: boolean) => (row: number, c: number) => {
    const edge = lowerEdge(alphaAt(c)) + (closed ? 0.06 : 0);
    return lidAt(lowerRows, (i) => Math.max(-1.3, edge - lowerRows[i]!.de), lowerClear[c]!, -1, row, c);
  };
  const build = (rows: typeof upperRows, at: (row: number, c: number) => V3) => {
    const m = orient(
      grid(rowCount(rows), cols, (row, c) => {
        const q = at(row, c);
        return { p: q, color: paint(rows[row]?.color ?? null, q) };
      }),
      awayFrom(centre),
    );
    // Where the lid lies on the skin it shades like the skin.
    for (let i = 0; i < m.positions.length / 3; i++) {
      const q: V3 = [m.positions[i * 3]!, m.positions[i * 3 + 1]!, m.positions[i * 3 + 2]!];
      if (rows[Math.floor(i / cols)]?.k !== 0 && Math.abs(uncut(q[0], q[1], q[2])) < 0.0006) m.normals.splice(i * 3, 3, ...skinNormal(q));
    }
    return m;
  };
  const upper = build(upperRows, upperAt(false));
  const lower = build(lowerRows, lowerAt(false));
  const mesh: MeshData = {
    positions: [...upper.positions, ...lower.positions],
    normals: [...upper.normals, ...lower.normals],
    colors: [...upper.colors, ...lower.colors],
    indices: [...upper.indices, ...lower.indices.map((i) => i + upper.positions.length / 3)],
  };
  const closed = [...gridPositions(rowCount(upperRows), cols, upperAt(true)), ...gridPositions(rowCount(lowerRows), cols, lowerAt(true))];
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
    // Full over the inner third, then tapering to a fine tail (the portraits' brows).
    const width = (0.006 - 0.0044 * Math.pow(s, 1.7)) * p.brow.weight;
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
