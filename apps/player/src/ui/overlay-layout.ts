// Where captions and the chat history may go so that they never cover the face (issue 18, 9):
// captions sit between the face's chin and the chat input (as low as they can), or above the
// face when there is no room below; the history sits beside the face, or above it, or is hidden.
// All boxes are in the player's CSS pixels, measured on the page (the face box comes from the
// renderer: the frames of eyes, brows and mouth, or the 3D head projected).
// A notice (issue 39, 8) takes a band at the top of the player: the captions and the history
// start below it (`ceiling`), so on a phone it is never drawn over the chat bubbles.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface CaptionPlace {
  /** Distance of the caption's top edge from the player's top. */
  top: number;
  /** The caption may not grow taller than this (it scrolls to its latest words). */
  maxHeight: number;
}

export interface HistoryPlace {
  left: number;
  top: number;
  width: number;
  maxHeight: number;
}

const GAP = 8;
const MIN_CAPTION = 24;
const MIN_HISTORY_W = 140;
export const MIN_HISTORY_H = 56;
/** The forehead above the brows is kept clear too: the face box starts at the brows. */
const FOREHEAD = 0.25;

/** The face with its forehead: what the overlays keep clear of. */
export function headOf(face: Box): Box {
  const lift = face.h * FOREHEAD;
  return { x: face.x, y: face.y - lift, w: face.w, h: face.h + lift };
}

/**
 * @param size the player's size
 * @param face the face box, null when unknown (then only the chat input is avoided)
 * @param bottomBar height of the chat input and controls at the bottom
 * @param captionHeight the caption's natural height
 * @param ceiling the bottom of the notices at the top (0 when none is shown)
 */
export function placeCaption(
  size: { w: number; h: number },
  face: Box | null,
  bottomBar: number,
  captionHeight: number,
  ceiling = 0,
): CaptionPlace {
  const floor = size.h - bottomBar - GAP;
  const roof = ceiling + GAP;
  if (!face) return { top: Math.max(roof, floor - captionHeight), maxHeight: Math.max(MIN_CAPTION, floor - roof) };
  const chin = face.y + face.h + GAP;
  const below = floor - chin;
  const above = face.y - GAP - roof;
  if (captionHeight <= below) return { top: floor - captionHeight, maxHeight: below };
  if (captionHeight <= above) return { top: Math.max(roof, face.y - GAP - captionHeight), maxHeight: above };
  // Room for neither: the larger side, clipped to it.
  if (below >= above) return { top: chin, maxHeight: Math.max(MIN_CAPTION, below) };
  return { top: roof, maxHeight: Math.max(MIN_CAPTION, above) };
}

/** The history's place, or null to hide it (no room that leaves the face free). */
export function placeHistory(
  size: { w: number; h: number },
  face: Box | null,
  bottomBar: number,
  preferredWidth: number,
  ceiling = 0,
): HistoryPlace | null {
  const width = Math.min(preferredWidth, size.w - 2 * GAP);
  const floor = size.h - bottomBar - GAP;
  const top = ceiling + GAP;
  if (!face) return { left: size.w - GAP - width, top, width, maxHeight: floor - top };
  const right = size.w - GAP - (face.x + face.w + GAP);
  if (right >= MIN_HISTORY_W) {
    const w = Math.min(width, right);
    return { left: size.w - GAP - w, top, width: w, maxHeight: floor - top };
  }
  const above = face.y - GAP - top;
  if (above >= MIN_HISTORY_H) return { left: size.w - GAP - width, top, width, maxHeight: above };
  return null;
}

/** The history made to stop above a caption it would meet, or null when too little is left. */
export function historyAboveCaption(h: HistoryPlace, extent: number, caption: Box): HistoryPlace | null {
  const meets =
    caption.x < h.left + h.width && h.left < caption.x + caption.w && caption.y < h.top + extent && h.top < caption.y + caption.h;
  if (!meets) return h;
  const room = caption.y - GAP - h.top;
  return room >= MIN_HISTORY_H ? { ...h, maxHeight: room } : null;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
