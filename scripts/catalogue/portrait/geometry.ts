// Where things are on a portrait (768 × 960, head and shoulders). Every drawing module and the
// atlas crop rectangles read these numbers, so a feature never leaves its crop.
import type { Person } from '../people';

export const W = 768;
export const H = 960;
export const CX = W / 2;

export interface HeadGeometry {
  cx: number;
  skullTop: number;
  faceHalfW: number;
  jawHalfW: number;
  chinY: number;
  eyeY: number;
  eyeDX: number;
  eyeHalfW: number;
  eyeH: number;
  browY: number;
  noseY: number;
  mouthY: number;
  /** Half width of the mouth at rest, the unit of the mouth model. */
  mouthUnit: number;
  earY: number;
  neckHalfW: number;
  /** The head turns around this point (top of the neck). */
  pivot: [number, number];
}

export function headGeometry(p: Person): HeadGeometry {
  const faceHalfW = 128 * p.face.width;
  return {
    cx: CX,
    skullTop: 168,
    faceHalfW,
    jawHalfW: 98 * p.face.jaw * p.face.width,
    chinY: 598,
    eyeY: 402,
    eyeDX: 60 * p.face.width,
    eyeHalfW: 29 * p.face.eyeSize,
    eyeH: 15 * p.face.eyeSize,
    browY: 360,
    noseY: 476,
    mouthY: 530,
    mouthUnit: 40 * (0.94 + 0.06 * p.face.lipFullness),
    earY: 432,
    neckHalfW: (p.feminine ? 50 : 60) * p.face.width,
    pivot: [CX, 575],
  };
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Crop rectangles of the feature frames; they never overlap one another. */
export function featureRects(g: HeadGeometry): { brows: Rect; eyes: Rect; mouth: Rect } {
  const eyesTop = g.eyeY - g.eyeH - 14;
  return {
    brows: { x: g.cx - 120, y: g.browY - 34, w: 240, h: eyesTop - (g.browY - 34) },
    eyes: { x: g.cx - 122, y: eyesTop, w: 244, h: g.eyeH + 14 + 28 },
    mouth: { x: g.cx - 82, y: g.mouthY - 42, w: 164, h: 100 },
  };
}
