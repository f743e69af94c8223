// The head as a signed distance field, in head space (metres; origin between the ears at eye
// level; the face looks down +Z). Proportions are a little stylised: larger eyes, smaller jaw.
import type { Person } from '../people';
import { capsule, ellipsoid, rotateZ, smin, smax, smoothstep, sphere, type Sdf, type V3 } from '../mesh/sdf';

export interface HeadLayout {
  sdf: Sdf;
  /** The head without the eye sockets: the skin the lids lie on. */
  uncut: Sdf;
  /** Eye centres and eyeball radius. */
  eyes: [V3, V3];
  eyeRadius: number;
  /** Mouth centre (on the surface) and the mouth model's unit (half width at rest). */
  mouth: V3;
  mouthUnit: number;
  /** The jaw turns about this point when the mouth opens. */
  jawPivot: V3;
  /** Brow curves in front projection (x, y), one per side. */
  brows: [number, number][][];
}

/** How far forward the eyeballs' centres sit: the cornea stands a little proud of the lids. */
const EYE_Z = 0.0765;

const bell = (d: number, w: number) => Math.exp(-(d * d) / (w * w));

/** Distance in the front view (x, y) from a point to the segment a–b, and where along it (0–1). */
function segment2(x: number, y: number, a: [number, number], b: [number, number]): { d: number; h: number; side: number } {
  const bx = b[0] - a[0],
    by = b[1] - a[1];
  const h = Math.max(0, Math.min(1, ((x - a[0]) * bx + (y - a[1]) * by) / (bx * bx + by * by)));
  const dx = x - a[0] - bx * h,
    dy = y - a[1] - by * h;
  // Which side (positive: to the right of a→b seen from the front).
  return { d: Math.hypot(dx, dy), h, side: Math.sign(dx * by - dy * bx) };
}

/**
 * Fine structure of the face, as a small offset to the head's distance (positive carves in,
 * negative builds out; a few tenths of a millimetre to 1 mm, broad): the folds from the nose's
 * wings past the mouth's corners, the dip under the lower lip, the philtrum's groove with its
 * ridges, and the hollow under the cheekbones with the cheekbone's edge above it.
 */
function faceDetail(fw: number, x0: number, y: number, z: number): number {
  const front = smoothstep(0.045, 0.07, z);
  if (front === 0) return 0;
  const x = Math.abs(x0);
  let d = 0;
  // Nasolabial fold: from beside the nose's wing, down and out, passing ~1 cm outside the mouth's
  // corner; the cheek swells a little on its outer side.
  const fold = segment2(x, y, [0.0195, -0.03], [0.04, -0.062]);
  const along = smoothstep(0, 0.3, fold.h) * (1 - smoothstep(0.65, 1, fold.h));
  // Signed across the fold (positive on the cheek's side): continuous, so no step in the field.
  const across = -fold.side * fold.d;
  d += along * (0.0009 * bell(across, 0.0055) - 0.0005 * bell(across - 0.009, 0.0065));
  // The dip under the lower lip, above the chin.
  d += 0.001 * bell(y + 0.064, 0.0055) * (1 - smoothstep(0.008, 0.02, x));
  // The philtrum: a shallow groove under the nose, a ridge each side.
  const lip = smoothstep(-0.0455, -0.042, y) * (1 - smoothstep(-0.036, -0.032, y));
  d += lip * (0.0003 * bell(x, 0.0035) - 0.00015 * bell(x - 0.0065, 0.003));
  // Cheekbones: the edge under the outer eye a touch higher, the hollow below it a touch deeper.
  const bone = segment2(x, y, [0.034 * fw, -0.019], [0.056 * fw, -0.012]);
  d -= 0.0005 * bell(bone.d, 0.0055) * smoothstep(0.05, 0.06, z);
  d += 0.0007 * bell(Math.hypot((x - 0.047 * fw) / 1.4, y + 0.038), 0.009) * smoothstep(0.04, 0.065, z);
  return d * front;
}

/** Twelve directions (an icosahedron's corners), for averaging the field round a point. */
const ICO: V3[] = (() => {
  const g = (1 + Math.sqrt(5)) / 2;
  const l = Math.hypot(1, g);
  const out: V3[] = [];
  for (const a of [-1, 1]) for (const b of [-g, g]) out.push([0, a / l, b / l], [a / l, b / l, 0], [b / l, 0, a / l]);
  return out;
})();

/**
 * The lower face (below the nose, and the cheeks from under the eyes, to the jaw and the chin) with its field averaged over
 * a 5 mm sphere: where the solids it is built from meet (lips, chin, jaw, cheeks, the folds)
 * their blends left ripples a few millimetres wide that shaded as lumps on the cheeks and rings
 * on the chin. Averaging keeps the broad shape (a flat or gently curved surface stays put)
 * and irons out what is smaller than the sphere. Only near the surface: far from it the field
 * is the plain one.
 */
function smoothLowerFace(f: Sdf, r = 0.005): Sdf {
  return (x, y, z) => {
    const d = f(x, y, z);
    const cheek = smoothstep(0.022, 0.032, Math.abs(x)) * smoothstep(-0.01, -0.02, y);
    const w = Math.max(smoothstep(-0.026, -0.036, y), cheek) * smoothstep(-0.03, 0.0, z) * (1 - smoothstep(0.006, 0.01, Math.abs(d)));
    if (w === 0) return d;
    let sum = d;
    for (const o of ICO) sum += f(x + o[0] * r, y + o[1] * r, z + o[2] * r);
    return d + w * (sum / (ICO.length + 1) - d);
  };
}

export function headLayout(p: Person): HeadLayout {
  const fw = p.face.width;
  const jaw = p.face.jaw;
  const nw = p.face.noseWidth;
  const fem = p.feminine ? 1 : 0;
  // A little larger than life (16 mm made small, beady eyes at portrait sizes).
  const eyeR = 0.0172 * p.face.eyeSize;
  const eyes: [V3, V3] = [
    [-0.032 * fw, 0.004, EYE_Z],
    [0.032 * fw, 0.004, EYE_Z],
  ];
  const cranium = ellipsoid([0, 0.026, -0.012], [0.073 * fw, 0.088, 0.094]);
  const face = ellipsoid([0, -0.024, 0.02], [0.06 * fw, 0.08, 0.078]);
  const jawS = ellipsoid([0, -0.062, 0.026], [0.037 * jaw * fw, 0.034 + 0.004 * (1 - fem), 0.052]);
  const chin = ellipsoid([0, -0.085, 0.058], [0.017 + 0.004 * (1 - fem), 0.014, 0.016]);
  // The jaw line from below the ear to the chin: a firm edge instead of a soft sag.
  const jawLine = (x: number, y: number, z: number) =>
    capsule([0.044 * fw * jaw, -0.04, 0.0], [0.013, -0.086, 0.048], 0.0095, 0.0105)(Math.abs(x), y, z);
  const cheeks = (x: number, y: number, z: number) => ellipsoid([0.036 * fw, -0.02, 0.052], [0.024, 0.022, 0.024])(Math.abs(x), y, z);
  // Cheekbones: a firm ridge under the outer eye, running back towards the ear.
  const zygoma = (x: number, y: number, z: number) =>
    capsule([0.043 * fw, -0.018, 0.063], [0.058 * fw, -0.01, 0.025], 0.0095, 0.0075)(Math.abs(x), y, z);
  // The jaw's angle below the ear, stronger for a square jaw.
  const gonion = (x: number, y: number, z: number) =>
    sphere([0.041 * fw * jaw, -0.063 + 0.004 * fem, -0.002], 0.0095 - 0.0015 * fem)(Math.abs(x), y, z);
  const browRidge = ellipsoid([0, 0.028, 0.07], [0.056 * fw, 0.013, 0.022 - 0.003 * fem]);
  // The nose: a narrow bridge from between the brows, a defined tip, wings set off by a crease.
  const bridge = capsule([0, 0.01, 0.085], [0, -0.02, 0.097], 0.0038 * nw, 0.0064 * nw);
  const tip = sphere([0, -0.0235, 0.0955], 0.0082 * (0.9 + 0.1 * nw));
  const wings = (x: number, y: number, z: number) => ellipsoid([0.0102 * nw, -0.0275, 0.0855], [0.0062, 0.0056, 0.0064])(Math.abs(x), y, z);
  const lipsBulge = ellipsoid([0, -0.049, 0.08], [0.025, 0.017, 0.012]);
  const ear = rotateZ(ellipsoid([0.073 * fw, -0.008, -0.008], [0.01, 0.029, 0.019]), -0.12, [0.073 * fw, -0.008, 0]);
  // The ear's bowl: hollowed out from the side, leaving the rim (helix) round it.
  const bowl = rotateZ(ellipsoid([0.073 * fw + 0.0095, -0.007, -0.006], [0.0062, 0.021, 0.0125]), -0.12, [0.073 * fw, -0.008, 0]);
  const ears = (x: number, y: number, z: number) => smax(ear(Math.abs(x), y, z), -bowl(Math.abs(x), y, z), 0.004);
  const socket = (x: number, y: number, z: number) => ellipsoid(eyes[1], [eyeR * 1.1, eyeR * 1.07, eyeR * 1.07])(Math.abs(x), y, z);

  // Below the cheekbones the face narrows towards the chin (a tapering jaw, not a square one);
  // the back of the head is left as it is (the narrowing fades out over 4 cm behind the ears).
  const shape: Sdf = (x0, y, z) => {
    const x = x0 * (1 + Math.max(0, -0.025 - y) * Math.min(1, Math.max(0, 1 + (z + 0.02) * 25)));
    let d = smin(cranium(x, y, z), face(x, y, z), 0.06);
    d = smin(d, jawS(x, y, z), 0.03);
    d = smin(d, chin(x, y, z), 0.02);
    d = smin(d, jawLine(x, y, z), 0.02);
    d = smin(d, cheeks(x, y, z), 0.025);
    d = smin(d, zygoma(x, y, z), 0.016);
    d = smin(d, gonion(x, y, z), 0.018);
    d = smin(d, browRidge(x, y, z), 0.02);
    d = smin(d, lipsBulge(x, y, z), 0.016);
    d = smin(d, bridge(x, y, z), 0.012);
    d = smin(d, tip(x, y, z), 0.01);
    d = smin(d, wings(x, y, z), 0.0045);
    return d + faceDetail(fw, x, y, z);
  };
  const lower = smoothLowerFace(shape);
  const uncut: Sdf = (x, y, z) => smin(lower(x, y, z), ears(x, y, z), 0.008);
  const sdf: Sdf = (x, y, z) => smax(uncut(x, y, z), -socket(x, y, z), 0.004);
  const brows = [-1, 1].map((s) => [
    [s * 0.012 * fw, 0.025],
    [s * 0.026 * fw, 0.0305],
    [s * 0.04 * fw, 0.031],
    [s * 0.053 * fw, 0.023],
  ]) as [number, number][][];
  return {
    sdf,
    uncut,
    eyes,
    eyeRadius: eyeR,
    mouth: [0, -0.049, 0.1],
    mouthUnit: 0.0225 * (0.95 + 0.05 * p.face.lipFullness),
    jawPivot: [0, -0.026, -0.012],
    brows,
  };
}
