// Crops the chosen square of an image on a canvas and scales it down to at most 800 px
// (spec 2 §9: crop aspect 1, output at most 800 px).
import { AVATAR_PHOTO_MAX_PX } from '@parla/shared/limits';

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('The image could not be read.'));
    img.src = src;
  });
}

export async function cropToSquare(src: string, area: PixelArea, max = AVATAR_PHOTO_MAX_PX): Promise<Blob> {
  const img = await loadImage(src);
  const side = Math.max(1, Math.round(Math.min(area.width, area.height, max)));
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('The image could not be cropped.');
  g.imageSmoothingQuality = 'high';
  g.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, side, side);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The image could not be cropped.'))), 'image/jpeg', 0.92),
  );
}
