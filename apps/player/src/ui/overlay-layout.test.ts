import { describe, expect, it } from 'vitest';
import { headOf, historyAboveCaption, overlaps, placeCaption, placeHistory, type Box } from './overlay-layout';

const captionBox = (w: number, top: number, h: number): Box => ({ x: 10, y: top, w: w - 20, h });

describe('overlay layout', () => {
  it('puts a caption between the chin and the chat input when it fits, never under the input', () => {
    const face: Box = { x: 90, y: 80, w: 60, h: 70 };
    const p = placeCaption({ w: 236, h: 420 }, face, 110, 40);
    expect(p.top + 40).toBeLessThanOrEqual(420 - 110);
    expect(overlaps(captionBox(236, p.top, 40), face)).toBe(false);
  });

  it('moves the caption above the face when there is no room below it (9:16, 420 px)', () => {
    const face: Box = { x: 80, y: 190, w: 76, h: 100 };
    const p = placeCaption({ w: 236, h: 420 }, face, 110, 60);
    expect(p.top + Math.min(60, p.maxHeight)).toBeLessThanOrEqual(face.y);
    expect(overlaps(captionBox(236, p.top, Math.min(60, p.maxHeight)), face)).toBe(false);
  });

  it('clips a caption too tall for either side to the larger side', () => {
    const face: Box = { x: 80, y: 40, w: 76, h: 200 };
    const p = placeCaption({ w: 236, h: 420 }, face, 110, 200);
    expect(p.top).toBeGreaterThanOrEqual(face.y + face.h);
    expect(p.top + p.maxHeight).toBeLessThanOrEqual(420 - 110);
  });

  it('puts the history beside the face, else above it, else hides it', () => {
    const wide = placeHistory({ w: 1280, h: 720 }, { x: 540, y: 180, w: 200, h: 250 }, 110, 340)!;
    expect(overlaps({ x: wide.left, y: wide.top, w: wide.width, h: wide.maxHeight }, { x: 540, y: 180, w: 200, h: 250 })).toBe(false);
    const narrow = placeHistory({ w: 236, h: 420 }, { x: 80, y: 120, w: 76, h: 100 }, 110, 340)!;
    expect(narrow.top + narrow.maxHeight).toBeLessThanOrEqual(120);
    expect(placeHistory({ w: 236, h: 420 }, { x: 60, y: 30, w: 116, h: 150 }, 110, 340)).toBeNull();
  });

  it('keeps the caption and the history below a notice at the top of a 390 px phone', () => {
    const size = { w: 390, h: 844 };
    const face = headOf({ x: 122, y: 511, w: 145, h: 154 });
    const notice = 12 + 60;
    const caption = placeCaption(size, face, 110, 90, notice);
    expect(caption.top).toBeGreaterThan(notice);
    expect(overlaps({ x: 20, y: caption.top, w: 350, h: 90 }, face)).toBe(false);
    const history = placeHistory(size, face, 110, 390, notice)!;
    expect(history.top).toBeGreaterThan(notice);
    expect(history.top + history.maxHeight).toBeLessThanOrEqual(face.y);
  });

  it('stops the history above a caption it would meet, or hides it when too little is left', () => {
    const h = { left: 8, top: 80, width: 374, maxHeight: 400 };
    const kept = historyAboveCaption(h, 400, { x: 20, y: 300, w: 350, h: 90 })!;
    expect(kept.top + kept.maxHeight).toBeLessThanOrEqual(300);
    expect(historyAboveCaption(h, 400, { x: 20, y: 100, w: 350, h: 90 })).toBeNull();
    expect(historyAboveCaption(h, 100, { x: 20, y: 300, w: 350, h: 90 })).toBe(h);
  });

  it('counts the forehead above the brows as part of the face', () => {
    expect(headOf({ x: 0, y: 100, w: 50, h: 80 })).toEqual({ x: 0, y: 80, w: 50, h: 100 });
  });
});
