// The head as a signed distance field, in head space (metres; origin between the ears at eye
// level; the face looks down +Z). Proportions are a little stylised: larger eyes, smaller jaw.
import type { Person } from '../people';
import { capsule, ellipsoid, rotateZ, smin, smax, sphere, type Sdf, type V3 } from '../mesh/sdf';

export interface HeadLayout {
  sdf: Sdf;
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

export function headLayout(p: Person): HeadLayout {
  const fw = p.face.width;
  const jaw = p.face.jaw;
  const nw = p.face.noseWidth;
  const fem = p.feminine ? 1 : 0;
  const eyeR = 0.0148 * p.face.eyeSize;
  const eyes: [V3, V3] = [
    [-0.032 * fw, 0.004, 0.077],
    [0.032 * fw, 0.004, 0.077],
  ];
  const cranium = ellipsoid([0, 0.026, -0.012], [0.073 * fw, 0.088, 0.094]);
  const face = ellipsoid([0, -0.026, 0.02], [0.061 * fw, 0.084, 0.078]);
  const jawS = ellipsoid([0, -0.065, 0.026], [0.042 * jaw * fw, 0.036 + 0.004 * (1 - fem), 0.054]);
  const chin = ellipsoid([0, -0.089, 0.06], [0.019 + 0.004 * (1 - fem), 0.015, 0.017]);
  // The jaw line from below the ear to the chin: a firm edge instead of a soft sag.
  const jawLine = (x: number, y: number, z: number) =>
    capsule([0.046 * fw * jaw, -0.042, 0.0], [0.015, -0.09, 0.05], 0.011, 0.012)(Math.abs(x), y, z);
  const cheeks = (x: number, y: number, z: number) => ellipsoid([0.037 * fw, -0.024, 0.052], [0.025, 0.023, 0.024])(Math.abs(x), y, z);
  // Cheekbones: a firm ridge under the outer eye, running back towards the ear.
  const zygoma = (x: number, y: number, z: number) =>
    capsule([0.043 * fw, -0.018, 0.063], [0.058 * fw, -0.01, 0.025], 0.0095, 0.0075)(Math.abs(x), y, z);
  // The jaw's angle below the ear, stronger for a square jaw.
  const gonion = (x: number, y: number, z: number) =>
    sphere([0.044 * fw * jaw, -0.066 + 0.004 * fem, -0.002], 0.011 - 0.0015 * fem)(Math.abs(x), y, z);
  const browRidge = ellipsoid([0, 0.028, 0.07], [0.056 * fw, 0.013, 0.022 - 0.003 * fem]);
  // The nose: a narrow bridge from between the brows, a defined tip, wings set off by a crease.
  const bridge = capsule([0, 0.012, 0.086], [0, -0.023, 0.1005], 0.0047 * nw, 0.0079 * nw);
  const tip = sphere([0, -0.027, 0.099], 0.0098 * (0.9 + 0.1 * nw));
  const wings = (x: number, y: number, z: number) => ellipsoid([0.0118 * nw, -0.0315, 0.0885], [0.0072, 0.0066, 0.0074])(Math.abs(x), y, z);
  const lipsBulge = ellipsoid([0, -0.053, 0.08], [0.028, 0.019, 0.013]);
  const ear = rotateZ(ellipsoid([0.073 * fw, -0.008, -0.008], [0.01, 0.029, 0.019]), -0.12, [0.073 * fw, -0.008, 0]);
  // The ear's bowl: hollowed out from the side, leaving the rim (helix) round it.
  const bowl = rotateZ(ellipsoid([0.073 * fw + 0.0095, -0.007, -0.006], [0.0062, 0.021, 0.0125]), -0.12, [0.073 * fw, -0.008, 0]);
  const ears = (x: number, y: number, z: number) => smax(ear(Math.abs(x), y, z), -bowl(Math.abs(x), y, z), 0.004);
  const socket = (x: number, y: number, z: number) =>
    ellipsoid([0.032 * fw, 0.004, 0.077], [eyeR * 1.12, eyeR * 1.08, eyeR * 1.08])(Math.abs(x), y, z);

  const sdf: Sdf = (x, y, z) => {
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
    d = smin(d, ears(x, y, z), 0.008);
    d = smax(d, -socket(x, y, z), 0.007);
    return d;
  };
  const brows = [-1, 1].map((s) => [
    [s * 0.012 * fw, 0.026],
    [s * 0.026 * fw, 0.032],
    [s * 0.04 * fw, 0.033],
    [s * 0.054 * fw, 0.025],
  ]) as [number, number][][];
  return {
    sdf,
    eyes,
    eyeRadius: eyeR,
    mouth: [0, -0.053, 0.1],
    mouthUnit: 0.0255 * (0.95 + 0.05 * p.face.lipFullness),
    jawPivot: [0, -0.026, -0.012],
    brows,
  };
}
