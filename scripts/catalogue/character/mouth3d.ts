// The 3D mouth: a decal on the skin whose rows follow the mouth model (mouth-shapes.ts), so a
// viseme moves the lips as the 2D portraits draw them. Lips have volume (each rises out of the
// skin at its border, with no step, rounds over and rolls into the lip line) and are shaded by
// their own normals; their colour grows out of the skin's over the border; the upper lip has a
// cupid's bow; the corners tuck into the cheeks. Between the lips a dark lip line, and when open
// a dark mouth with the teeth's edges and the tongue showing.
import type { Person } from '../people';
import { computeNormals, linear, lerp3, type MeshData } from '../mesh/mesh';
import { smoothstep, type Sdf, type V3 } from '../mesh/sdf';
import { lipContours, type LipContours, type MouthShape } from '../mouth-shapes';
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
  /** Where across the lip (0 border … 1 lip line) it stands highest. */
  peak?: number;
  /** The lower lip (the skin at its border is in its shade). */
  lower?: boolean;
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

/**
 * A lip's cross-section (f: 0 at its border, 1 at the lip line): rises out of the skin with no
 * slope (so no rim), rounds over at `peak`, rolls into the lip line (a crease, where they meet).
 */
function profile(f: number, peak: number): number {
  if (f < peak) return Math.pow(Math.sin((Math.PI / 2) * (f / peak)), 2);
  return 0.28 + 0.72 * Math.cos((Math.PI / 2) * ((f - peak) / (1 - peak)));
}

const bell = (d: number, w: number) => Math.exp(-(d * d) / (w * w));
const scale = (c: V3, k: number): V3 => [c[0] * k, c[1] * k, c[2] * k];

/** Heights over the head's surface (m): the skirt's outer edge, and the lips' border. */
const SKIRT = 0.00012;
const LIP_BASE = 0.0004;

/**
 * The lips' outline in 3D, from the shared model's: the upper lip with a cupid's bow (two peaks
 * either side of a notch where the philtrum meets it), a touch fuller; both lips thin out into the
 * corners (the shared outline keeps them full nearly to the end: a lens). Rounded lips (O, U)
 * smooth the bow out.
 */
function reshape(c: LipContours, s: MouthShape): LipContours {
  const n = c.innerTop.length - 1;
  const bow = 1 - 0.7 * s.round;
  const at = (inner: [number, number][], outer: [number, number][], k: (u: number) => number) =>
    outer.map(([x, y], i): [number, number] => [x, inner[i]![1] + (y - inner[i]![1]) * k((2 * i) / n - 1)]);
  const taper = (u: number) => Math.pow(1 - u * u, 0.25);
  // An open mouth stretches the lips thin, most towards the corners (lips of even depth all round
  // the opening read as a ring).
  const stretch = (u: number) => 1 - s.open * (0.15 + 0.4 * u * u);
  return {
    ...c,
    outerTop: at(
      c.innerTop,
      c.outerTop,
      (u) => (1.1 + 0.12 * bow * bell(Math.abs(u) - 0.22, 0.12) - 0.1 * bow * bell(u, 0.085)) * taper(u) * stretch(u),
    ),
    outerBottom: at(c.innerBottom, c.outerBottom, (u) => 1.06 * Math.pow(1 - u * u, 0.3) * stretch(u)),
  };
}

export function mouthDecal(p: Person, sdf: Sdf, centre: V3, unit: number, skinColorAt: (p: V3, n: V3) => V3): MouthDecal {
  const N = COLUMNS;
  const cols = N + 1;
  // The 2D palette's lip colour; the upper lip a little darker (the 2D portraits draw it so, and
  // the light from above brightens the lower lip).
  // On light skin a little rosier and less saturated than the palette's (its orange-pink read
  // as salmon there): green down towards blue, then a touch of grey. Darker skins keep theirs
  // (the same shift made their lips read pink).
  const palette = linear(p.lips);
  const skinTone = linear(p.skin);
  const light = smoothstep(0.35, 0.6, 0.2126 * skinTone[0] + 0.7152 * skinTone[1] + 0.0722 * skinTone[2]);
  const rose: V3 = [palette[0], palette[1] * 0.9, Math.max(palette[2], palette[1] * 0.95)];
  const grey = 0.3 * rose[0] + 0.55 * rose[1] + 0.15 * rose[2];
  const lip = lerp3(palette, lerp3(rose, [grey, grey, grey], 0.15), light);
  const lipsTop = lerp3(lip, [0, 0, 0], 0.15);
  const lipsBottom = lerp3(lip, [0, 0, 0], 0.04);
  const line = lerp3(lip, [0.02, 0, 0], 0.75);
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

  const bands = (s: MouthShape): { list: Band[]; corners: [number, number][] } => {
    const c = reshape(lipContours(s, N, p.face.lipFullness), s);
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
    // The lips' colour: darker into the lip line; the lower lip's sheen a soft band across it.
    const toLine = (k: number, c0: V3) => lerp3(c0, line, 0.9 * Math.pow(Math.max(0, (k - 0.8) / 0.2), 1.4));
    const sheen = (k: number) => lerp3(lipsBottom, [1, 1, 1], 0.06 * bell(k - 0.45, 0.2));
    const list: Band[] = [
      { a: (t) => bound(t, true), b: oT, rows: 6, color: () => [0, 0, 0], lift: 0, skirt: 'top' },
      { a: oT, b: iT, rows: 9, color: (k, t) => corner(t, toLine(k, lipsTop), 0.3), lift: 0.0021, lip: (k) => k, peak: 0.55 },
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
      // Lower lip: from the lip line out, fuller.
      {
        a: iB,
        b: oB,
        rows: 9,
        color: (k, t) => corner(t, toLine(1 - k, sheen(k)), 0.3),
        lift: 0.0023,
        lip: (k) => 1 - k,
        peak: 0.62,
        lower: true,
      },
      { a: oB, b: (t) => bound(t, false), rows: 6, color: () => [0, 0, 0], lift: 0, skirt: 'bottom' },
    ];
    // The mouth's corners, where the lip line ends.
    return { list, corners: [c.innerTop[0]!, c.innerTop[N]!] };
  };

  const toHead = (u: number, v: number): { p: V3; n: V3 } => onSurface(sdf, centre[0] + u * unit, centre[1] - v * unit);

  /** Positions (and colours) of every vertex for a shape; skinShift moves the skirt with the skin. */
  const build = (s: MouthShape, skinShift: (p: V3) => V3) => {
    const positions: number[] = [];
    const normals: number[] = [];
    const colors: number[] = [];
    const own: number[] = [];
    const { list, corners } = bands(s);
    const extra = 0.00035 * s.round;
    for (const band of list) {
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
          // Near a corner of the mouth the lips and the skin tuck in, in shadow.
          const tuck = Math.max(...corners.map(([cu, cv]) => bell(Math.hypot(u - cu, v - cv), 0.14)));
          // Skin under the lower lip's overhang: a little shade.
          const under = 1 - 0.1 * across;
          let height: number, color: V3, weight: number;
          if (band.skirt) {
            // From the skin (outer edge) up to the lips' border: smooth at both ends.
            const inner = band.skirt === 'top' ? f : 1 - f;
            height = SKIRT + (LIP_BASE - SKIRT + extra) * smoothstep(0, 1, inner);
            color = skinColorAt(P, n);
            if (band.skirt === 'bottom') color = scale(color, 1 - (1 - under) * inner * inner);
            weight = smoothstep(0.2, 0.8, inner);
          } else if (band.lip) {
            const k = band.lip(f);
            height = LIP_BASE + extra + band.lift * (1 + 0.8 * s.round) * across * profile(k, band.peak ?? 0.5);
            const skinHere = scale(skinColorAt(P, n), band.lower ? under : 1);
            // The lips' colour grows out of the skin's over the border, and fades a little into the corners.
            const fade = 0.4 + 0.6 * smoothstep(0, 0.12, Math.min(t, 1 - t));
            color = lerp3(skinHere, band.color(f, t), smoothstep(0, 0.4, k) * fade);
            weight = 1;
          } else {
            height = band.lift + extra;
            color = band.color(f, t);
            weight = 0;
          }
          if (band.skirt || band.lip) color = lerp3(color, [0, 0, 0], 0.35 * tuck);
          positions.push(...add(P, n, height - 0.0008 * tuck));
          normals.push(...n);
          colors.push(...color);
          own.push(weight);
        }
      }
    }
    return { positions, normals, colors, own };
  };

  const mesh = (s: MouthShape): MeshData => {
    const b = build(s, () => [0, 0, 0]);
    const m: MeshData = { positions: b.positions, normals: b.normals, colors: b.colors, indices: [] };
    let row0 = 0;
    for (const band of bands(s).list) {
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
    // The lips are shaded by their own shape, and so is the skirt next to them (its normals turn
    // back to the skin's at its outer edge); the inside of the mouth keeps the skin's normals (at
    // rest its rows lie on one line: no shape to take normals from). Rows that coincide (a lip's
    // border and the skirt's edge) are welded for this, so the shading runs on over the border.
    const first = new Map<string, number>();
    const weld = Array.from({ length: P.length / 3 }, (_, i) => {
      const key = `${P[i * 3]!.toFixed(7)},${P[i * 3 + 1]!.toFixed(7)},${P[i * 3 + 2]!.toFixed(7)}`;
      if (!first.has(key)) first.set(key, i);
      return first.get(key)!;
    });
    const shape: MeshData = { positions: P, normals: [], colors: [], indices: m.indices.map((i) => weld[i]!) };
    computeNormals(shape);
    m.normals = [];
    for (let i = 0; i < b.own.length; i++) {
      const w = b.own[i]!,
        j = weld[i]! * 3;
      const nn: V3 = [0, 1, 2].map((c) => b.normals[i * 3 + c]! * (1 - w) + shape.normals[j + c]! * w) as V3;
      const l = Math.hypot(...nn) || 1;
      m.normals.push(nn[0] / l, nn[1] / l, nn[2] / l);
    }
    return m;
  };

  return { mesh, frame: (s, shift) => build(s, shift).positions };
}
