// A whole portrait as SVG, or just some of its layers (back hair, body, head), in a given
// state of eyes, brows and mouth. The atlas builder renders many of these and crops them.
import type { MouthShape } from '../mouth-shapes';
import type { Person } from '../people';
import { brows, defs, ears, eyes, faceShape, mouth, nose, type BrowState, type EyeState } from './face';
import { H, W, headGeometry } from './geometry';
import { hair } from './hair';
import { beard, body, earrings, glasses } from './outfit';

export type Layer = 'back' | 'body' | 'head';

export interface PortraitState {
  eyes: EyeState;
  brows: BrowState;
  mouth: MouthShape;
}

export function portraitSvg(p: Person, state: PortraitState, layers: Layer[], backdrop?: string): string {
  const g = headGeometry(p);
  const h = hair(p, g);
  const parts: string[] = [];
  if (backdrop) {
    parts.push(`<rect width="${W}" height="${H}" fill="${backdrop}"/>`);
    parts.push(`<circle cx="${W / 2}" cy="${H * 0.46}" r="${W * 0.44}" fill="#fff" opacity="0.45" filter="url(#b16)"/>`);
  }
  if (layers.includes('back')) parts.push(h.back);
  if (layers.includes('body')) parts.push(body(p, g));
  if (layers.includes('head')) {
    parts.push(ears(p, g), earrings(p, g), faceShape(p, g), nose(p, g), beard(p, g));
    parts.push(mouth(p, g, state.mouth), eyes(p, g, state.eyes), brows(p, g, state.brows));
    parts.push(h.front, glasses(p, g));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs(p)}</defs>${parts.join('')}</svg>`;
}
