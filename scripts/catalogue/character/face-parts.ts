// Parts of the 3D face built as small parametric meshes on top of the skin: eyeballs, eyelids
// (with the blink target), brows, and the mouth decal whose rows follow the mouth model.
import type { Person } from '../people';
import { computeNormals, linear, lerp3, type MeshData } from '../mesh/mesh';
import { gradient, raycast, type Sdf, type V3 } from '../mesh/sdf';
import { lipContours, type MouthShape } from '../mouth-shapes';

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
      const a = r * cols + c, b = a + 1, d = a + cols, e = d + 1;
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

export const awayFrom = (c: V3) => (p: V3): V3 => sub(p, c);

/** Points of a grid as positions only, for computing a morph target against the base. */
export function gridPositions(rows: number, cols: number, at: (r: number, c: number) => V3): number[] {
  const out: number[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(...at(r, c));
  return out;
}

// ── Eyes ──────────────────────────────────────────────────────────────────────────────────

const dir = (alpha: number, elev: number): V3 => [Math.sin(alpha) * Math.cos(elev), Math.sin(elev), Math.cos(alpha) * Math.cos(elev)];

export function eyeball(p: Person, centre: V3, r: number): MeshData {
  const iris = linear(p.iris);
  const white = linear('#efe9e2');
  const pink = linear('#e6b3a8');
  // The sphere's pole looks forward, so pupil and iris are rings of the grid: round edges.
  const thetas = [0, 0.08, 0.16, 0.2, 0.21, 0.3, 0.4, 0.48, 0.52, 0.55, 0.6, 0.75, 0.95, 1.2, 1.5, 1.9, 2.4, 2.9, Math.PI];
  const colorAt = (t: number): V3 => {
    if (t <= 0.2) return [0.004, 0.003, 0.003];
    if (t <= 0.52) {
      const k = (t - 0.21) / 0.31;
      const bright: V3 = [Math.min(1, iris[0] * 1.8 + 0.04), Math.min(1, iris[1] * 1.8 + 0.04), Math.min(1, iris[2] * 1.8 + 0.04)];
      return lerp3(bright, lerp3(iris, [0, 0, 0], 0.3), k * k);
    }
    if (t <= 0.55) return lerp3(iris, [0, 0, 0], 0.75);
    return lerp3(white, pink, Math.max(0, Math.min(1, (t - 1.0) / 1.0)));
  };
  const m = grid(thetas.length, 33, (i, j) => {
    const t = thetas[i]!;
    const az = (j / 32) * Math.PI * 2;
    const d: V3 = [Math.cos(az) * Math.sin(t), Math.sin(az) * Math.sin(t), Math.cos(t)];
    return { p: add(centre, d, r), color: colorAt(t) };
  });
  return orient(m, awayFrom(centre));
}

export interface Lids {
  mesh: MeshData;
  /** Positions with the eyes closed (the blink target). */
  closed: number[];
}

export function eyelids(p: Person, centre: V3, r: number, side: number, skin: V3): Lids {
  const lash = linear('#1b130e');
  const lid = lerp3(skin, linear('#b07060'), 0.08);
  const waterline = lerp3(skin, linear('#c07a70'), 0.35);
  const cols = 23;
  const alphaAt = (c: number) => -1.6 + (c / (cols - 1)) * 3.2;
  const upperEdge = (a: number) => 0.6 * Math.cos(1.1 * a) - 0.12 + 0.04 * a * side;
  const lowerEdge = (a: number) => -0.38 * Math.cos(1.1 * a) + 0.06 + 0.03 * a * side;
  const upperRows = [
    { de: 0, rad: 1.02, color: lash },
    { de: 0.06, rad: 1.11, color: lash },
    { de: 0.14, rad: 1.15, color: lid },
    { de: 0.3, rad: 1.16, color: lerp3(lid, [0.25, 0.12, 0.1], 0.35) },
    { de: 0.4, rad: 1.16, color: lid },
    { de: 0.8, rad: 1.16, color: lid },
    { de: 1.3, rad: 1.16, color: lid },
  ];
  const upperAt = (closed: boolean) => (row: number, c: number) => {
    const a = alphaAt(c);
    const edge = closed ? Math.max(lowerEdge(a) + 0.015, -0.25) : upperEdge(a);
    const top = 1.45;
    const k = upperRows[row]!.de / 1.3;
    const e = row === 0 ? edge : Math.min(top, edge + (top - edge) * k + (row < 3 ? upperRows[row]!.de * 0.5 : 0));
    return add(centre, dir(a, e), r * upperRows[row]!.rad);
  };
  const lowerRows = [
    { de: 0, rad: 1.02, color: waterline },
    { de: 0.06, rad: 1.1, color: lerp3(lash, skin, 0.55) },
    { de: 0.2, rad: 1.15, color: lid },
    { de: 0.8, rad: 1.16, color: lid },
  ];
  const lowerAt = (closed: boolean) => (row: number, c: number) => {
    const a = alphaAt(c);
    const edge = lowerEdge(a) + (closed ? 0.03 : 0);
    const e = Math.max(-1.3, edge - lowerRows[row]!.de);
    return add(centre, dir(a, e), r * lowerRows[row]!.rad);
  };
  const upper = orient(grid(upperRows.length, cols, (row, c) => ({ p: upperAt(false)(row, c), color: upperRows[row]!.color })), awayFrom(centre));
  const lower = orient(grid(lowerRows.length, cols, (row, c) => ({ p: lowerAt(false)(row, c), color: lowerRows[row]!.color })), awayFrom(centre));
  const mesh: MeshData = { positions: [...upper.positions, ...lower.positions], normals: [...upper.normals, ...lower.normals], colors: [...upper.colors, ...lower.colors], indices: [...upper.indices, ...lower.indices.map((i) => i + upper.positions.length / 3)] };
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
    const p0 = points[Math.max(0, i - 1)]!, p1 = points[i]!, p2 = points[i + 1]!, p3 = points[Math.min(n - 1, i + 2)]!;
    const f = (a: number, b: number, c: number, d: number) => 0.5 * (2 * b + (-a + c) * u + (2 * a - 5 * b + 4 * c - d) * u * u + (-a + 3 * b - 3 * c + d) * u * u * u);
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
  const m = grid(
    4,
    pts.length,
    (row, i) => {
      const { p: P, n } = base[i]!;
      const next = base[Math.min(pts.length - 1, i + 1)]!.p, prev = base[Math.max(0, i - 1)]!.p;
      const t = norm(sub(next, prev));
      const b = norm(cross(n, t));
      const s = inner ? i / (pts.length - 1) : 1 - i / (pts.length - 1);
      const width = (0.0062 - 0.0036 * s * s) * p.brow.weight;
      const rows = [
        [-0.5, 0.0005],
        [-0.3, 0.0017],
        [0.3, 0.0017],
        [0.5, 0.0005],
      ] as const;
      const [k, h] = rows[row]!;
      return { p: add(add(P, b, width * k), n, h), color: row === 0 || row === 3 ? lerp3(color, [0.3, 0.2, 0.15], 0.15) : color };
    },
  );
  return orient(m, () => [0, 0.2, 1]);
}

// ── Mouth decal ───────────────────────────────────────────────────────────────────────────

export interface MouthFrame {
  /** Head-space positions of the decal's vertices for one mouth shape. */
  positions: number[];
}

/**
 * The decal's layout in mouth space: bands of rows between the lip contours and an outer skirt
 * that fades into the skin. Colours are fixed per vertex; shapes move the rows.
 */
export interface MouthDecal {
  mesh: (shape: MouthShape) => MeshData;
  frame: (shape: MouthShape, skinShift: (p: V3) => V3) => number[];
}

export function mouthDecal(p: Person, sdf: Sdf, centre: V3, unit: number, skinColorAt: (p: V3, n: V3) => V3): MouthDecal {
  const N = 24;
  const cols = N + 1;
  // A little more saturated than the 2D palette: lighting washes vertex colours out.
  const lip = linear(p.lips);
  const grey = (lip[0] + lip[1] + lip[2]) / 3;
  const vivid: V3 = [Math.max(0, grey + (lip[0] - grey) * 1.35), Math.max(0, grey + (lip[1] - grey) * 1.35), Math.max(0, grey + (lip[2] - grey) * 1.35)];
  const lipsTop = lerp3(vivid, [0, 0, 0], 0.15);
  const lipsBottom = lerp3(vivid, [1, 1, 1], 0.04);
  const teeth = linear('#ece6dc');
  const cavity = linear('#2a0d0e');
  const tongue = linear('#b24e58');
  const bound = (t: number, top: boolean): [number, number] => [-1.75 * Math.cos(Math.PI * t), (top ? -1.05 : 1.3) * Math.sin(Math.PI * t)];
  // Each band: from curve A to curve B with `rows` rows; depth pushes the interior in a little.
  type Curve = (t: number, i: number) => [number, number];
  interface Band { a: Curve; b: Curve; rows: number; color: (k: number) => V3; lift: number; skirt?: 'top' | 'bottom' }

  const bands = (s: MouthShape): Band[] => {
    const c = lipContours(s, N, p.face.lipFullness);
    const pick = (arr: [number, number][]) => (_t: number, i: number) => arr[i]!;
    const mixC = (A: Curve, B: Curve, f: number): Curve => (t, i) => {
      const a = A(t, i), b = B(t, i);
      return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
    };
    const iT = pick(c.innerTop), iB = pick(c.innerBottom), oT = pick(c.outerTop), oB = pick(c.outerBottom);
    const ut = 0.32 * s.upperTeeth, lt = 0.26 * s.lowerTeeth, tg = s.tongue > 0.9 ? 0.45 : 0.3 * s.tongue;
    return [
      { a: (t) => bound(t, true), b: oT, rows: 4, color: () => [0, 0, 0], lift: 0, skirt: 'top' },
      { a: oT, b: iT, rows: 4, color: (k) => lerp3(lipsTop, [0, 0, 0], 0.1 * k), lift: 0.0011 },
      { a: iT, b: mixC(iT, iB, ut), rows: 2, color: () => teeth, lift: 0.0004 },
      { a: mixC(iT, iB, ut + 0.02), b: mixC(iT, iB, 1 - lt - tg - 0.02), rows: 2, color: () => cavity, lift: 0.0003 },
      { a: mixC(iT, iB, 1 - lt - tg), b: mixC(iT, iB, 1 - lt), rows: 2, color: (k) => lerp3(tongue, [0, 0, 0], 0.2 * (1 - k)), lift: 0.0004 },
      { a: mixC(iT, iB, 1 - lt), b: iB, rows: 2, color: () => lerp3(teeth, [0, 0, 0], 0.08), lift: 0.0004 },
      { a: iB, b: oB, rows: 4, color: (k) => (k > 0.3 && k < 0.6 ? lerp3(lipsBottom, [1, 1, 1], 0.12) : lipsBottom), lift: 0.0013 },
      { a: oB, b: (t) => bound(t, false), rows: 4, color: () => [0, 0, 0], lift: 0, skirt: 'bottom' },
    ];
  };

  const toHead = (u: number, v: number): { p: V3; n: V3 } => onSurface(sdf, centre[0] + u * unit, centre[1] - v * unit);

  /** Positions (and colours) of every vertex for a shape; skinShift moves the skirt with the skin. */
  const build = (s: MouthShape, skinShift: (p: V3) => V3) => {
    const positions: number[] = [];
    const normals: number[] = [];
    const colors: number[] = [];
    const bandIndex: number[] = [];
    bands(s).forEach((band, bi) => {
      for (let r = 0; r < band.rows; r++) {
        const f = r / (band.rows - 1);
        for (let i = 0; i < cols; i++) {
          const t = i / N;
          const a = band.a(t, i), b = band.b(t, i);
          let u = a[0] + (b[0] - a[0]) * f, v = a[1] + (b[1] - a[1]) * f;
          // The skirt's outer edge follows the skin under it, so the skin never shows through.
          if (band.skirt) {
            const edgeF = band.skirt === 'top' ? 1 - f : f;
            const rest = toHead(u, v).p;
            const d = skinShift(rest);
            u += (d[0] / unit) * edgeF;
            v -= (d[1] / unit) * edgeF;
          }
          const { p: P, n } = toHead(u, v);
          const lipBulge = band.lift > 0.001 ? band.lift * (1 + 1.6 * s.round) * Math.sin(Math.PI * t) : band.lift;
          const skirtLift = band.skirt ? 0.0005 * (band.skirt === 'top' ? f : 1 - f) + 0.00012 : 0;
          const q = add(P, n, lipBulge + skirtLift + 0.00035 * s.round * (band.skirt ? 0 : 1));
          positions.push(...q);
          normals.push(...n);
          if (band.skirt) {
            colors.push(...skinColorAt(P, n));
          } else colors.push(...band.color(f));
          bandIndex.push(bi);
        }
      }
    });
    return { positions, normals, colors, bandIndex };
  };

  const mesh = (s: MouthShape): MeshData => {
    const b = build(s, () => [0, 0, 0]);
    const m: MeshData = { positions: b.positions, normals: b.normals, colors: b.colors, indices: [] };
    let row0 = 0;
    for (const band of bands(s)) {
      for (let r = 0; r < band.rows - 1; r++)
        for (let i = 0; i < cols - 1; i++) {
          const a = row0 + r * cols + i, bb = a + 1, d = a + cols, e = d + 1;
          m.indices.push(a, bb, d, bb, e, d);
        }
      row0 += band.rows * cols;
    }
    // Orientation: the winding must agree with the surface normals (the decal faces out).
    const P = m.positions;
    const k = (cols + N / 2) * 6; // a triangle in the middle of the upper skirt
    const [a, bb, c] = [m.indices[k]!, m.indices[k + 1]!, m.indices[k + 2]!];
    const e1: V3 = [P[bb * 3]! - P[a * 3]!, P[bb * 3 + 1]! - P[a * 3 + 1]!, P[bb * 3 + 2]! - P[a * 3 + 2]!];
    const e2: V3 = [P[c * 3]! - P[a * 3]!, P[c * 3 + 1]! - P[a * 3 + 1]!, P[c * 3 + 2]! - P[a * 3 + 2]!];
    if (cross(e1, e2)[2] < 0) for (let i = 0; i < m.indices.length; i += 3) [m.indices[i + 1], m.indices[i + 2]] = [m.indices[i + 2]!, m.indices[i + 1]!];
    return m;
  };

  return { mesh, frame: (s, shift) => build(s, shift).positions };
}
