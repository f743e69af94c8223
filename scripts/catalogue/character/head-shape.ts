// The head as a signed distance field, in head space (metres; origin between the ears at eye
// level; the face looks down +Z). Proportions are a little stylised: larger eyes, smaller jaw.
import type { Person } from '../people';
import { capsule, ellipsoid, rotateZ, smin, smax, sphere, type Sdf, type V3 } from '../mesh/sdf';

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

export function headLayout(p: Person): HeadLayout {
  const fw = p.face.width;
  const jaw = p.face.jaw;
  const nw = p.face.noseWidth;
  const fem = p.feminine ? 1 : 0;
  const eyeR = 0.016 * p.face.eyeSize;
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
  const uncut: Sdf = (x0, y, z) => {
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
    return smin(d, ears(x, y, z), 0.008);
  };
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
