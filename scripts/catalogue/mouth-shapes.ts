// One mouth model for every face we generate: each viseme is a handful of articulation numbers
// (how open, how wide, how rounded, which teeth and how much tongue show). The 2D portraits draw
// lips from them and the 3D faces morph a lip mesh from them, so both kinds of avatar say a
// sound the same way.
import type { Viseme } from '@parla/shared/visemes';

export interface MouthShape {
  /** Vertical opening between the lips, 0 closed … 1 widest ("aa"). */
  open: number;
  /** Width relative to rest. */
  width: number;
  /** Lip rounding / protrusion (O, U, CH, RR), 0 … 1. */
  round: number;
  /** Visible upper / lower teeth, 0 … 1. */
  upperTeeth: number;
  lowerTeeth: number;
  /** Tongue showing (TH between the teeth, DD/nn behind them). */
  tongue: number;
  /** Lips pressed together (P, B, M). */
  press: number;
  /** Lower lip tucked under the upper teeth (F, V). */
  lowerLipIn: number;
  /** Mouth corners raised (smile morph, 0 … 1). */
  smile: number;
}

const REST: MouthShape = { open: 0, width: 1, round: 0, upperTeeth: 0, lowerTeeth: 0, tongue: 0, press: 0, lowerLipIn: 0, smile: 0 };
const shape = (s: Partial<MouthShape>): MouthShape => ({ ...REST, ...s });

export const MOUTH_SHAPES: Record<Viseme, MouthShape> = {
  sil: shape({}),
  PP: shape({ width: 0.96, press: 1 }),
  FF: shape({ open: 0.16, width: 1.02, upperTeeth: 1, lowerLipIn: 1 }),
  TH: shape({ open: 0.26, width: 1.0, upperTeeth: 0.7, lowerTeeth: 0.2, tongue: 1 }),
  DD: shape({ open: 0.3, width: 1.03, upperTeeth: 0.8, lowerTeeth: 0.45, tongue: 0.55 }),
  kk: shape({ open: 0.36, width: 1.0, upperTeeth: 0.7, lowerTeeth: 0.35, tongue: 0.3 }),
  CH: shape({ open: 0.3, width: 0.86, round: 0.45, upperTeeth: 1, lowerTeeth: 0.9 }),
  SS: shape({ open: 0.16, width: 1.1, upperTeeth: 1, lowerTeeth: 1 }),
  nn: shape({ open: 0.24, width: 1.0, upperTeeth: 0.7, lowerTeeth: 0.25, tongue: 0.7 }),
  RR: shape({ open: 0.28, width: 0.84, round: 0.55, upperTeeth: 0.5, lowerTeeth: 0.2 }),
  aa: shape({ open: 0.9, width: 1.04, upperTeeth: 0.8, lowerTeeth: 0.3, tongue: 0.35 }),
  E: shape({ open: 0.5, width: 1.12, upperTeeth: 0.9, lowerTeeth: 0.55, tongue: 0.2 }),
  I: shape({ open: 0.32, width: 1.16, upperTeeth: 0.95, lowerTeeth: 0.7, smile: 0.3 }),
  O: shape({ open: 0.62, width: 0.74, round: 1, upperTeeth: 0.3, tongue: 0.2 }),
  U: shape({ open: 0.3, width: 0.62, round: 1 }),
};

export const SMILE_SHAPE: MouthShape = shape({ width: 1.08, smile: 1 });

/**
 * The lip contours of a shape in mouth space: x to the right, y down, unit = the resting half
 * width of the mouth. Each contour is sampled at `n + 1` points from the left corner (t = 0) to
 * the right corner (t = 1). The 3D lip mesh is built by interpolating between these contours.
 */
export interface LipContours {
  outerTop: [number, number][];
  innerTop: [number, number][];
  innerBottom: [number, number][];
  outerBottom: [number, number][];
  /** Half width of the opening and its height, for placing teeth and tongue. */
  halfWidth: number;
  openHeight: number;
}

export function lipContours(s: MouthShape, n = 24, lipFullness = 1): LipContours {
  const w = s.width * (1 - 0.22 * s.round);
  const h = s.open * 0.95;
  const upperT = (0.34 - 0.12 * s.press + 0.08 * s.round) * lipFullness; // upper lip thickness
  const lowerT = (0.42 - 0.14 * s.press - 0.16 * s.lowerLipIn + 0.08 * s.round) * lipFullness;
  const lift = 0.22 * s.smile; // corners up
  const outerTop: [number, number][] = [];
  const innerTop: [number, number][] = [];
  const innerBottom: [number, number][] = [];
  const outerBottom: [number, number][] = [];
  const roundness = 0.35 + 0.65 * s.round; // rounder opening → the opening is an ellipse
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const u = 2 * t - 1; // -1 … 1 across
    const x = u * w;
    const edge = Math.sqrt(Math.max(0, 1 - u * u)); // 1 at centre, 0 at corners
    const ell = Math.pow(edge, 1 - 0.5 * roundness);
    const cornerLift = -lift * Math.pow(Math.abs(u), 2.2);
    // Opening: the upper edge rises less than the lower edge falls (the jaw drops).
    const openTop = -h * 0.38 * ell;
    const openBottom = h * 0.62 * ell + 0.1 * s.lowerLipIn * edge;
    // Cupid's bow on the upper lip, a fuller curve on the lower.
    const bow = 0.06 * Math.exp(-Math.pow(u / 0.12, 2)) * (1 - s.round);
    const upperCurve = edge * (0.9 + 0.1 * Math.cos(u * Math.PI * 2.2)) * upperT;
    innerTop.push([x, openTop + cornerLift]);
    outerTop.push([x * (1 + 0.02), openTop - upperCurve + bow + cornerLift]);
    innerBottom.push([x, openBottom + cornerLift]);
    outerBottom.push([x * (1 + 0.02), openBottom + Math.pow(edge, 0.8) * lowerT + cornerLift]);
  }
  return { outerTop, innerTop, innerBottom, outerBottom, halfWidth: w, openHeight: h };
}
