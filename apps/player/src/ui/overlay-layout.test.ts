import { describe, expect, it } from 'vitest';
import { overlaps, placeCaption, placeHistory, type Box } from './overlay-layout';

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
});
