// Where, and how finely, a 3D face in software WebGL is drawn (decision 128). A CPU rasteriser
// pays for every pixel of the canvas every frame: the clear, the FXAA pass, the copy to the
// page's compositor and its scaling all cost the canvas's area, drawn or not. So the canvas
// covers only the figure (its box projected on the stage, with room for the idle motion), over
// the stage's background or a picture of the 3D environment drawn once (backdrop.ts), and its
// drawing buffer holds at most MAX_PIXELS, scaled up by CSS: FXAA has already smoothed the edges,
// and the browser's bilinear scaling keeps them smooth.
import type { FaceBox } from './renderer';

/** Drawing-buffer pixels per CSS pixel at most (decision 121's light profile). */
export const MAX_SCALE = 0.75;
/** The drawing buffer's pixels at most: a head and shoulders at about 230 × 260. */
export const MAX_PIXELS = 60_000;
/** Room around the figure's box for the idle motion (head turns, breathing, sway), a share of its size. */
const ROOM = 0.06;
/** And a few CSS pixels more, for FXAA's reach and rounding. */
const PAD = 6;

export interface DrawRegion extends FaceBox {
  /** Drawing-buffer pixels per CSS pixel. */
  scale: number;
}

/**
 * The part of a `width` × `height` stage to draw: `figure` (CSS pixels; null: the whole stage)
 * widened by the room for motion, cut to the stage, in whole CSS pixels; and its scale, so that
 * the drawing buffer holds at most `maxPixels`.
 */
export function drawRegion(figure: FaceBox | null, width: number, height: number, maxPixels = MAX_PIXELS): DrawRegion {
  let x0 = 0,
    y0 = 0,
    x1 = width,
    y1 = height;
  if (figure && Number.isFinite(figure.x + figure.y + figure.w + figure.h)) {
    const dx = figure.w * ROOM + PAD;
    const dy = figure.h * ROOM + PAD;
    x0 = Math.max(0, Math.floor(figure.x - dx));
    y0 = Math.max(0, Math.floor(figure.y - dy));
    x1 = Math.min(width, Math.ceil(figure.x + figure.w + dx));
    y1 = Math.min(height, Math.ceil(figure.y + figure.h + dy));
    // A figure wholly off the stage (never in practice): draw the stage.
    if (x1 - x0 < 1 || y1 - y0 < 1) [x0, y0, x1, y1] = [0, 0, width, height];
  }
  const w = Math.max(1, x1 - x0);
  const h = Math.max(1, y1 - y0);
  const scale = Math.min(MAX_SCALE, Math.sqrt(maxPixels / (w * h)));
  return { x: x0, y: y0, w, h, scale };
}
