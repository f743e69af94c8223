// Pictures of the mouth kept for the frames between two of the whole figure, in software WebGL
// (decision 128, amendment "mouth pictures"). While the avatar speaks, the mouth shows one viseme
// at a time (the easing reaches nine tenths of the next in a frame at 24 a second), and the pose
// changes only on the whole figure's frames. A mouth frame drawn by the CPU rasteriser costs about
// as much as the page's own floor; so the first time a viseme is drawn, the mouth's rectangle of
// the finished picture is read back and kept, and later frames of that viseme put the kept picture
// on a small 2D canvas over the face, mapped (an affine map) to where the mouth is now, while
// the WebGL canvas is neither drawn nor presented. A picture whose fit to the mouth's place now is
// off by more than a drawing-buffer pixel at a corner of the mouth's box (the head turned since)
// is drawn again in 3D.
import type { BufferRect } from './mouth-frames';

/** Drawing-buffer pixels at a kept picture's border that fade into the face under it. */
export const FEATHER = 2;
/** The most a kept picture may be off where the mouth is now after the fit, at any corner of the
 *  box the visemes move in (front to back, so a head turned since shows as the depth's parallax),
 *  in drawing-buffer pixels. At 1, a kept picture differs from the mouth drawn in 3D by 1.6–2.1
 *  levels of 255 on average (amendment "mouth pictures"). */
export const STALE_PX = 1;

/** How far the smile may have moved since a picture was drawn (it eases with the whole figure's frames). */
export const SMILE_STEP = 0.04;

/** What the mouth shows: one viseme (`key`), the smile, and whether another viseme is mixed in. */
export interface MouthShows {
  key: string;
  smile: number;
  /** No other viseme mixed in. */
  settled: boolean;
}

/** The affine map (x' = a·x + c·y + e, y' = b·x + d·y + f, as a 2D canvas's `setTransform(a, b,
 *  c, d, e, f)`) that best moves `from` onto `to` (flat lists of x, y pairs, least squares), and
 *  the largest distance left between the two after it. */
export function fit(
  from: ArrayLike<number>,
  to: ArrayLike<number>,
): { a: number; b: number; c: number; d: number; e: number; f: number; error: number } {
  const n = from.length / 2;
  let fx = 0,
    fy = 0,
    gx = 0,
    gy = 0;
  for (let i = 0; i < n; i++) {
    fx += from[2 * i]!;
    fy += from[2 * i + 1]!;
    gx += to[2 * i]!;
    gy += to[2 * i + 1]!;
  }
  [fx, fy, gx, gy] = [fx / n, fy / n, gx / n, gy / n];
  // Normal equations on the centred points: [a c; b d] = (Σ q pᵀ)(Σ p pᵀ)⁻¹.
  let sxx = 0,
    sxy = 0,
    syy = 0,
    ux = 0,
    uy = 0,
    vx = 0,
    vy = 0;
  for (let i = 0; i < n; i++) {
    const [px, py, qx, qy] = [from[2 * i]! - fx, from[2 * i + 1]! - fy, to[2 * i]! - gx, to[2 * i + 1]! - gy];
    sxx += px * px;
    sxy += px * py;
    syy += py * py;
    ux += qx * px;
    uy += qx * py;
    vx += qy * px;
    vy += qy * py;
  }
  const det = sxx * syy - sxy * sxy;
  const [a, c, b, d] =
    Math.abs(det) > 1e-9
      ? [(ux * syy - uy * sxy) / det, (uy * sxx - ux * sxy) / det, (vx * syy - vy * sxy) / det, (vy * sxx - vx * sxy) / det]
      : [1, 0, 0, 1];
  const e = gx - (a * fx + c * fy),
    f = gy - (b * fx + d * fy);
  let error = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = [from[2 * i]!, from[2 * i + 1]!];
    error = Math.max(error, Math.hypot(a * x + c * y + e - to[2 * i]!, b * x + d * y + f - to[2 * i + 1]!));
  }
  return { a, b, c, d, e, f, error };
}

/** `rgba` read from WebGL (rows bottom up, premultiplied) as an image (rows top down, straight
 *  alpha), its outer `FEATHER` pixels fading out. */
export function toPicture(rgba: Uint8Array, w: number, h: number): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    const from = (h - 1 - y) * w * 4;
    for (let x = 0; x < w; x++) {
      const i = from + x * 4,
        o = (y * w + x) * 4;
      const alpha = rgba[i + 3]!;
      const k = alpha > 0 && alpha < 255 ? 255 / alpha : 1;
      out[o] = rgba[i]! * k;
      out[o + 1] = rgba[i + 1]! * k;
      out[o + 2] = rgba[i + 2]! * k;
      const edge = Math.min(x, y, w - 1 - x, h - 1 - y);
      out[o + 3] = edge < FEATHER ? (alpha * (edge + 1)) / (FEATHER + 1) : alpha;
    }
  }
  return out;
}

interface Kept {
  picture: HTMLCanvasElement;
  /** Its top-left corner in the drawing buffer (rows from the top). */
  x: number;
  y: number;
  /** Where the mouth's anchors were when it was drawn. */
  anchors: Float64Array;
  shows: MouthShows;
}

/** Drawing-buffer pixels of room around the mouth's rectangle on the overlay, for a kept picture
 *  moved to where the mouth is now. */
const ROOM = 3;

/** Where the face canvas stands on the stage, in CSS pixels. */
export interface CanvasPlace {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MouthCache {
  /** After the face canvas was placed (`width` × `height` drawing-buffer pixels over `place`):
   *  every kept picture is dropped. */
  resize(place: CanvasPlace, width: number, height: number): void;
  /** After a whole frame: the overlay moves over the mouth's rectangle (widened by `reach`, the
   *  edge pass's), so a picture put on it changes only that much of the page. */
  place(rect: BufferRect, reach: number): void;
  /** Whether a mouth just drawn showing `shows` is worth keeping: its viseme has no picture that
   *  fits the mouth's place (`anchors`) and smile now, or only one with another viseme mixed in. */
  wants(shows: MouthShows, anchors: Float64Array): boolean;
  /** Shows the picture of what the mouth shows, where the mouth is now; false (and nothing shown)
   *  if there is none that fits. */
  show(shows: MouthShows, anchors: Float64Array): boolean;
  /** The face canvas was drawn: the overlay shows nothing. */
  hide(): void;
  /** Keeps `rect` (widened by `reach`) of the drawing buffer just drawn, showing `shows`, from
   *  row `fromRow` (counted from the top: below the eyes) down. */
  keep(shows: MouthShows, rect: BufferRect, reach: number, anchors: Float64Array, fromRow: number): void;
  dispose(): void;
}

/** `rect` (from the bottom, as WebGL counts) widened by `grow`, inside a `width` × `height` buffer. */
function widen(rect: BufferRect, grow: number, width: number, height: number): BufferRect {
  const x = Math.max(0, rect.x - grow),
    y = Math.max(0, rect.y - grow);
  return { x, y, w: Math.min(width, rect.x + rect.w + grow) - x, h: Math.min(height, rect.y + rect.h + grow) - y };
}

export function mouthCache(gl: WebGLRenderingContext | WebGL2RenderingContext, faceCanvas: HTMLCanvasElement): MouthCache {
  const overlay = document.createElement('canvas');
  overlay.className = 'face-mouth';
  overlay.width = overlay.height = 1;
  faceCanvas.after(overlay);
  const ctx = overlay.getContext('2d')!;
  const kept = new Map<string, Kept>();
  let shown = false;
  let canvas: CanvasPlace = { left: 0, top: 0, width: 1, height: 1 };
  let [bufferW, bufferH] = [1, 1];
  // The overlay's top-left corner in the drawing buffer (rows from the top).
  let [ox, oy] = [0, 0];

  const fresh = ({ key, smile }: MouthShows, anchors: Float64Array) => {
    const k = kept.get(key);
    if (!k || Math.abs(k.shows.smile - smile) > SMILE_STEP) return null;
    const f = fit(k.anchors, anchors);
    return f.error <= STALE_PX ? { k, f } : null;
  };
  const hide = () => {
    if (!shown) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    shown = false;
  };

  return {
    resize(place, width, height) {
      kept.clear();
      hide();
      canvas = place;
      [bufferW, bufferH] = [width, height];
    },
    place(rect, reach) {
      hide();
      const r = widen(rect, reach + FEATHER + ROOM, bufferW, bufferH);
      if (overlay.width !== r.w || overlay.height !== r.h) Object.assign(overlay, { width: r.w, height: r.h });
      [ox, oy] = [r.x, bufferH - (r.y + r.h)];
      const [sx, sy] = [canvas.width / bufferW, canvas.height / bufferH];
      Object.assign(overlay.style, {
        left: `${canvas.left + ox * sx}px`,
        top: `${canvas.top + oy * sy}px`,
        width: `${r.w * sx}px`,
        height: `${r.h * sy}px`,
      });
    },
    wants(shows, anchors) {
      const found = fresh(shows, anchors);
      return !found || (shows.settled && !found.k.shows.settled);
    },
    show(shows, anchors) {
      const found = fresh(shows, anchors);
      if (!found) return false;
      hide();
      const { k, f } = found;
      ctx.setTransform(f.a, f.b, f.c, f.d, f.e - ox, f.f - oy);
      ctx.drawImage(k.picture, k.x, k.y);
      shown = true;
      return true;
    },
    hide,
    keep(shows, rect, reach, anchors, fromRow) {
      const wide = widen(rect, reach + FEATHER, bufferW, bufferH);
      const { x, y, w } = wide;
      const h = Math.min(wide.h, bufferH - fromRow - y);
      if (w <= 2 * FEATHER || h <= 2 * FEATHER) return;
      const rgba = new Uint8Array(w * h * 4);
      gl.readPixels(x, y, w, h, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
      const picture = Object.assign(document.createElement('canvas'), { width: w, height: h });
      picture.getContext('2d')!.putImageData(new ImageData(toPicture(rgba, w, h), w, h), 0, 0);
      kept.set(shows.key, { picture, x, y: bufferH - (y + h), anchors: anchors.slice(), shows: { ...shows } });
    },
    dispose() {
      kept.clear();
      overlay.remove();
    },
  };
}
