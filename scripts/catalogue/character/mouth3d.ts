// The 3D mouth: a decal on the skin whose rows follow the mouth model (mouth-shapes.ts), so a
// viseme moves the lips as the 2D portraits draw them. Lips have volume (each rises from its
// border, rounds over and rolls into the lip line) and are shaded by their own normals; between
// them a dark lip line, and when open a dark mouth with the teeth's edges and the tongue showing.
import type { Person } from '../people';
import { computeNormals, linear, lerp3, type MeshData } from '../mesh/mesh';
import type { Sdf, V3 } from '../mesh/sdf';
import { lipContours, type MouthShape } from '../mouth-shapes';
import { onSurface } from './face-parts';

const add = (a: V3, b: V3, k = 1): V3 => [a[0] + b[0] * k, a[1] + b[1] * k, a[2] + b[2] * k];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * The decal's layout in mouth space: bands of rows between the lip contours and an outer skirt
 * that fades into the skin. Colours are fixed per vertex; shapes move the rows.
 */
export interface MouthDecal {
  mesh: (shape: MouthShape) => MeshData;
  frame: (shape: MouthShape, skinShift: (p: V3) => V3) => number[];
}

type Curve = (t: number, i: number) => [number, number];
interface Band {
  a: Curve;
  b: Curve;
  rows: number;
  /** Colour at row position k (0 at a, 1 at b) and across the mouth t (0 left corner … 1 right). */
  color: (k: number, t: number) => V3;
  /** Height over the skin (m); for lips the peak, shaped by `profile`. */
  lift: number;
  /** Lip cross-section: 0 at the border, 1 at the lip line. */
  lip?: (k: number) => number;
  skirt?: 'top' | 'bottom';
}

/**
 * Where one tooth meets the next, across the mouth (t: 0 left corner … 1 right): the upper
 * central incisors are the widest, the lower teeth narrower.
 */
const UPPER_TEETH = [0.5, 0.34, 0.66, 0.23, 0.77, 0.13, 0.87, 0.06, 0.94];
const LOWER_TEETH = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.11, 0.89];

/** Columns of vertices across the mouth: enough for the gaps between the teeth to be drawn. */
const COLUMNS = 36;

/** 1 on a boundary between teeth, falling to 0 a column away. */
function gap(bounds: number[], t: number): number {
  let d = 1;
  for (const b of bounds) d = Math.min(d, Math.abs(t - b));
  return Math.max(0, 1 - d * COLUMNS);
}

/** A lip's cross-section: rises from its border, rounds over, rolls into the lip line. */
const profile = (f: number) => Math.sin(Math.PI * (0.1 + 0.8 * f));

export function mouthDecal(p: Person, sdf: Sdf, centre: V3, unit: number, skinColorAt: (p: V3, n: V3) => V3): MouthDecal {
  const N = COLUMNS;
  const cols = N + 1;
  // The 2D palette's lip colour, a touch more saturated (lighting washes vertex colours out).
  const lip = linear(p.lips);
  const grey = (lip[0] + lip[1] + lip[2]) / 3;
  const vivid: V3 = [
    Math.max(0, grey + (lip[0] - grey) * 1.1),
    Math.max(0, grey + (lip[1] - grey) * 1.1),
    Math.max(0, grey + (lip[2] - grey) * 1.1),
  ];
  const lipsTop = lerp3(vivid, [0, 0, 0], 0.12);
  const lipsBottom = lerp3(vivid, [1, 1, 1], 0.05);
  const line = lerp3(vivid, [0.02, 0, 0], 0.75);
  const teeth = linear('#ebe4d8');
  const cavity = linear('#3a1215');
  const tongue = linear('#c05a64');
  // Corners of the mouth are in shadow.
  const corner = (t: number, c: V3, k = 0.55): V3 => lerp3(c, [0, 0, 0], k * Math.pow(Math.abs(2 * t - 1), 2.5));
  /** A tooth's colour: k from the lip (0, in the lip's shadow) to the biting edge (1, a little translucent). */
  const tooth = (k: number, t: number, gaps: number[]): V3 => {
    let c = lerp3(teeth, [0.2, 0.1, 0.08], 0.45 * Math.pow(1 - k, 2));
    c = lerp3(c, linear('#9aa0a8'), 0.3 * Math.pow(k, 3));
    c = lerp3(c, [0.22, 0.1, 0.09], 0.7 * gap(gaps, t));
    return corner(t, c, 0.75);
  };
  const bound = (t: number, top: boolean): [number, number] => [-1.75 * Math.cos(Math.PI * t), (top ? -1.05 : 1.3) * Math.sin(Math.PI * t)];

  const bands = (s: MouthShape): Band[] => {
    const c = lipContours(s, N, p.face.lipFullness);
    const pick = (arr: [number, number][]) => (_t: number, i: number) => arr[i]!;
    const iT = pick(c.innerTop),
      iB = pick(c.innerBottom),
      oT = pick(c.outerTop),
      oB = pick(c.outerBottom);
    const mixF =
      (A: Curve, B: Curve, f: (t: number) => number): Curve =>
      (t, i) => {
        const a = A(t, i),
          b = B(t, i),
          k = f(t);
        return [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k];
      };
    // How much of the opening each row of teeth and the tongue take; an open mouth always shows
    // a little of the lower teeth. The teeth's edges dip between teeth (each tooth's rounded
    // corners); the tongue is domed.
    const ut = 0.4 * s.upperTeeth,
      lt = 0.32 * Math.max(s.lowerTeeth, 0.45 * s.open),
      tg = s.tongue > 0.9 ? 0.45 : 0.42 * s.tongue;
    const upperEdge = (t: number) => ut * (1 - 0.22 * gap(UPPER_TEETH, t));
    const lowerEdge = (t: number) => 1 - lt * (1 - 0.25 * gap(LOWER_TEETH, t));
    const tongueTop = (t: number) => lowerEdge(t) - tg * (0.45 + 0.55 * Math.sin(Math.PI * t));
    const toLine = (k: number, c0: V3) => lerp3(c0, line, 0.85 * Math.pow(Math.max(0, (k - 0.78) / 0.22), 1.5));
    return [
      { a: (t) => bound(t, true), b: oT, rows: 4, color: () => [0, 0, 0], lift: 0, skirt: 'top' },
      // Upper lip: a faint light border, the lip, darker as it rolls into the lip line.
      {
        a: oT,
        b: iT,
        rows: 7,
        color: (k, t) => corner(t, toLine(k, k < 0.12 ? lerp3(lipsTop, [1, 1, 1], 0.1) : lipsTop), 0.3),
        lift: 0.002,
        lip: (k) => k,
      },
      { a: iT, b: mixF(iT, iB, upperEdge), rows: 4, color: (k, t) => tooth(k, t, UPPER_TEETH), lift: 0.0009 },
      {
        a: mixF(iT, iB, (t) => upperEdge(t) + 0.02),
        b: mixF(iT, iB, (t) => tongueTop(t) - 0.02),
        rows: 2,
        color: (_k, t) => corner(t, cavity, 0.6),
        lift: 0.0001,
      },
      {
        a: mixF(iT, iB, tongueTop),
        b: mixF(iT, iB, lowerEdge),
        rows: 3,
        color: (k, t) => corner(t, lerp3(tongue, [0, 0, 0], 0.3 * (1 - k))),
        lift: 0.0005,
      },
      { a: mixF(iT, iB, lowerEdge), b: iB, rows: 3, color: (k, t) => tooth(1 - k, t, LOWER_TEETH), lift: 0.0008 },
      // Lower lip: from the lip line out, fuller, with a soft highlight across its middle.
      {
        a: iB,
        b: oB,
        rows: 7,
        color: (k, t) => corner(t, toLine(1 - k, k > 0.3 && k < 0.6 ? lerp3(lipsBottom, [1, 1, 1], 0.1) : lipsBottom), 0.3),
        lift: 0.0025,
        lip: (k) => 1 - k,
      },
      { a: oB, b: (t) => bound(t, false), rows: 4, color: () => [0, 0, 0], lift: 0, skirt: 'bottom' },
    ];
  };

  const toHead = (u: number, v: number): { p: V3; n: V3 } => onSurface(sdf, centre[0] + u * unit, centre[1] - v * unit);

  /** Positions (and colours) of every vertex for a shape; skinShift moves the skirt with the skin. */
  const build = (s: MouthShape, skinShift: (p: V3) => V3) => {
    const positions: number[] = [];
    const normals: number[] = [];
    const colors: number[] = [];
    const ownNormal: boolean[] = [];
    for (const band of bands(s)) {
      for (let r = 0; r < band.rows; r++) {
        const f = r / (band.rows - 1);
        for (let i = 0; i < cols; i++) {
          const t = i / N;
          const a = band.a(t, i),
            b = band.b(t, i);
          let u = a[0] + (b[0] - a[0]) * f,
            v = a[1] + (b[1] - a[1]) * f;
          // The skirt's outer edge follows the skin under it, so the skin never shows through.
          if (band.skirt) {
            const edgeF = band.skirt === 'top' ? 1 - f : f;
            const d = skinShift(toHead(u, v).p);
            u += (d[0] / unit) * edgeF;
            v -= (d[1] / unit) * edgeF;
          }
          const { p: P, n } = toHead(u, v);
          // Lips: fullest in the middle, thinning to the corners; rounder lips stand out more.
          const across = Math.pow(Math.sin(Math.PI * t), 0.6);
          const height = band.lip ? band.lift * (1 + 0.8 * s.round) * across * profile(band.lip(f)) + 0.0004 : band.lift;
          const skirtLift = band.skirt ? 0.0005 * (band.skirt === 'top' ? f : 1 - f) + 0.00012 : 0;
          positions.push(...add(P, n, height + skirtLift + 0.00035 * s.round * (band.skirt ? 0 : 1)));
          normals.push(...n);
          colors.push(...(band.skirt ? skinColorAt(P, n) : band.color(f, t)));
          ownNormal.push(!!band.lip);
        }
      }
    }
    return { positions, normals, colors, ownNormal };
  };

  const mesh = (s: MouthShape): MeshData => {
    const b = build(s, () => [0, 0, 0]);
    const m: MeshData = { positions: b.positions, normals: b.normals, colors: b.colors, indices: [] };
    let row0 = 0;
    for (const band of bands(s)) {
      for (let r = 0; r < band.rows - 1; r++)
        for (let i = 0; i < cols - 1; i++) {
          const a = row0 + r * cols + i,
            bb = a + 1,
            d = a + cols,
            e = d + 1;
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
    if (cross(e1, e2)[2] < 0)
      for (let i = 0; i < m.indices.length; i += 3) [m.indices[i + 1], m.indices[i + 2]] = [m.indices[i + 2]!, m.indices[i + 1]!];
    // The lips are shaded by their own shape; the skirt keeps the skin's normals, and so does
    // the inside of the mouth (at rest its rows lie on one line: no shape to take normals from).
    const own = { ...m, normals: [] as number[] };
    computeNormals(own);
    m.normals = b.normals.map((v, i) => (b.ownNormal[Math.floor(i / 3)] ? own.normals[i]! : v));
    return m;
  };

  return { mesh, frame: (s, shift) => build(s, shift).positions };
}
