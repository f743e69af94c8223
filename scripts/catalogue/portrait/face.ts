// Face, ears, nose, eyes, brows and mouth of a portrait as SVG fragments. Light comes from the
// upper left; shading is soft (blurred shapes), outlines are few, as in editorial illustration.
import { lipContours, type MouthShape } from '../mouth-shapes';
import type { Person } from '../people';
import type { HeadGeometry } from './geometry';
import { band, mirrorX, mix, shade, smoothClosed, smoothOpen, type Pt } from './paths';

export type EyeState = 'open' | 'half' | 'closed';
export type BrowState = 'neutral' | 'raised';

export function faceOutline(g: HeadGeometry): Pt[] {
  const { cx, faceHalfW: fw, jawHalfW: jw, chinY } = g;
  const right: Pt[] = [
    [cx + fw * 0.72, g.skullTop + 32],
    [cx + fw * 0.98, g.skullTop + 130],
    [cx + fw * 1.0, g.eyeY + 8],
    [cx + fw * 0.93, g.noseY + 6],
    [cx + jw, g.mouthY + 18],
    [cx + jw * 0.5, chinY - 14],
  ];
  const left = mirrorX(right, cx).reverse();
  return [[cx, g.skullTop], ...right, [cx, chinY], ...left];
}

export function defs(p: Person): string {
  const skin = p.skin;
  return `
  <filter id="b2" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="2"/></filter>
  <filter id="b4" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="4"/></filter>
  <filter id="b8" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="8"/></filter>
  <filter id="b16" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="16"/></filter>
  <radialGradient id="skinG" cx="0.42" cy="0.4" r="0.75">
    <stop offset="0" stop-color="${shade(skin, 0.1)}"/><stop offset="0.6" stop-color="${skin}"/><stop offset="1" stop-color="${shade(skin, -0.16)}"/>
  </radialGradient>
  <linearGradient id="neckG" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${shade(skin, -0.3)}"/><stop offset="0.35" stop-color="${shade(skin, -0.1)}"/><stop offset="1" stop-color="${shade(skin, -0.02)}"/>
  </linearGradient>
  <radialGradient id="irisG" cx="0.5" cy="0.55" r="0.55">
    <stop offset="0" stop-color="${shade(p.iris, 0.35)}"/><stop offset="0.7" stop-color="${p.iris}"/><stop offset="1" stop-color="${shade(p.iris, -0.5)}"/>
  </radialGradient>
  <linearGradient id="lipUG" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${shade(p.lips, -0.05)}"/><stop offset="1" stop-color="${shade(p.lips, -0.22)}"/>
  </linearGradient>
  <linearGradient id="lipLG" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${shade(p.lips, -0.12)}"/><stop offset="0.55" stop-color="${shade(p.lips, 0.08)}"/><stop offset="1" stop-color="${p.lips}"/>
  </linearGradient>`;
}

export function ears(p: Person, g: HeadGeometry): string {
  const out: string[] = [];
  for (const side of [-1, 1]) {
    const x = g.cx + side * (g.faceHalfW * 0.97);
    const pts: Pt[] = [
      [x - side * 6, g.earY - 44],
      [x + side * 16, g.earY - 40],
      [x + side * 24, g.earY - 14],
      [x + side * 18, g.earY + 22],
      [x + side * 6, g.earY + 44],
      [x - side * 10, g.earY + 36],
    ];
    out.push(`<path d="${smoothClosed(pts)}" fill="${side < 0 ? shade(p.skin, -0.04) : shade(p.skin, -0.12)}"/>`);
    out.push(
      `<path d="${smoothOpen([
        [x + side * 2, g.earY - 28],
        [x + side * 14, g.earY - 20],
        [x + side * 12, g.earY + 8],
        [x + side * 2, g.earY + 24],
      ])}" stroke="${shade(p.skin, -0.3)}" stroke-width="5" fill="none" stroke-linecap="round" filter="url(#b2)"/>`,
    );
  }
  return out.join('');
}

export function faceShape(p: Person, g: HeadGeometry): string {
  const outline = smoothClosed(faceOutline(g));
  const { cx } = g;
  return `
  <path d="${outline}" fill="url(#skinG)"/>
  <clipPath id="faceClip"><path d="${outline}"/></clipPath>
  <g clip-path="url(#faceClip)">
    <ellipse cx="${cx + g.faceHalfW * 0.95}" cy="${g.eyeY + 40}" rx="${g.faceHalfW * 0.35}" ry="200" fill="${shade(p.skin, -0.22)}" opacity="0.45" filter="url(#b16)"/>
    <ellipse cx="${cx - g.eyeDX}" cy="${g.eyeY - 4}" rx="46" ry="26" fill="${shade(p.skin, -0.2)}" opacity="0.35" filter="url(#b8)"/>
    <ellipse cx="${cx + g.eyeDX}" cy="${g.eyeY - 4}" rx="46" ry="26" fill="${shade(p.skin, -0.24)}" opacity="0.4" filter="url(#b8)"/>
    <ellipse cx="${cx - g.eyeDX - 22}" cy="${g.noseY + 8}" rx="34" ry="20" fill="${mix(p.skin, '#e0605a', 0.35)}" opacity="${p.feminine ? 0.35 : 0.18}" filter="url(#b16)"/>
    <ellipse cx="${cx + g.eyeDX + 22}" cy="${g.noseY + 8}" rx="34" ry="20" fill="${mix(p.skin, '#e0605a', 0.35)}" opacity="${p.feminine ? 0.3 : 0.15}" filter="url(#b16)"/>
    <ellipse cx="${cx - 40}" cy="${g.skullTop + 120}" rx="60" ry="30" fill="${shade(p.skin, 0.25)}" opacity="0.35" filter="url(#b16)"/>
    <ellipse cx="${cx}" cy="${g.chinY - 24}" rx="34" ry="14" fill="${shade(p.skin, 0.14)}" opacity="0.45" filter="url(#b8)"/>
  </g>`;
}

export function nose(p: Person, g: HeadGeometry): string {
  const { cx, noseY } = g;
  const nw = 19 * p.face.noseWidth;
  const dark = shade(p.skin, -0.35);
  return `
  <path d="${smoothOpen([
    [cx + 10, g.eyeY + 6],
    [cx + 13, g.eyeY + 40],
    [cx + 17, noseY - 18],
  ])}" stroke="${shade(p.skin, -0.25)}" stroke-width="7" fill="none" opacity="0.55" filter="url(#b4)"/>
  <ellipse cx="${cx}" cy="${noseY + 12}" rx="${nw + 8}" ry="8" fill="${shade(p.skin, -0.3)}" opacity="0.35" filter="url(#b4)"/>
  <ellipse cx="${cx - 3}" cy="${noseY - 6}" rx="9" ry="8" fill="${shade(p.skin, 0.25)}" opacity="0.55" filter="url(#b4)"/>
  <path d="${smoothOpen([
    [cx - nw, noseY - 8],
    [cx - nw - 4, noseY + 2],
    [cx - nw + 2, noseY + 9],
    [cx - 7, noseY + 8],
  ])}" stroke="${dark}" stroke-width="3" fill="none" stroke-linecap="round" opacity="0.75"/>
  <path d="${smoothOpen([
    [cx + nw, noseY - 8],
    [cx + nw + 4, noseY + 2],
    [cx + nw - 2, noseY + 9],
    [cx + 7, noseY + 8],
  ])}" stroke="${dark}" stroke-width="3" fill="none" stroke-linecap="round" opacity="0.75"/>
  <ellipse cx="${cx - nw * 0.5}" cy="${noseY + 7}" rx="5" ry="2.6" fill="${shade(p.skin, -0.5)}" opacity="0.7"/>
  <ellipse cx="${cx + nw * 0.5}" cy="${noseY + 7}" rx="5" ry="2.6" fill="${shade(p.skin, -0.5)}" opacity="0.7"/>`;
}

/** Upper and lower lid curves of one eye (side -1 = the viewer's left). */
function lids(g: HeadGeometry, side: number, state: EyeState): { upper: Pt[]; lower: Pt[]; crease: Pt[] } {
  const x = g.cx + side * g.eyeDX;
  const y = g.eyeY;
  const hw = g.eyeHalfW;
  const inner: Pt = [x - side * hw, y + 3];
  const outer: Pt = [x + side * hw, y - 3];
  const lower: Pt[] = [inner, [x - side * hw * 0.35, y + g.eyeH * 0.62], [x + side * hw * 0.4, y + g.eyeH * 0.5], outer];
  const openness = state === 'open' ? 1 : state === 'half' ? 0.42 : 0;
  const lift = (k: number) => (1 - openness) * k;
  const upperOpen: Pt[] = [inner, [x - side * hw * 0.4, y - g.eyeH * 0.98], [x + side * hw * 0.3, y - g.eyeH * 1.02], outer];
  const upper = upperOpen.map(([px, py], i) => {
    if (i === 0 || i === 3) return [px, py] as Pt;
    const closedY = lower[i]![1] - 1;
    return [px, py + lift(closedY - py)] as Pt;
  });
  const crease: Pt[] = [
    [x - side * hw * 0.8, y - g.eyeH * 0.9],
    [x - side * hw * 0.1, y - g.eyeH * 1.55],
    [x + side * hw * 0.75, y - g.eyeH * 1.25],
  ];
  return { upper, lower, crease };
}

export function eyes(p: Person, g: HeadGeometry, state: EyeState): string {
  const out: string[] = [];
  for (const side of [-1, 1]) {
    const x = g.cx + side * g.eyeDX;
    const { upper, lower, crease } = lids(g, side, state);
    const id = `eye${side < 0 ? 'L' : 'R'}`;
    out.push(
      `<path d="${smoothOpen(crease)}" stroke="${shade(p.skin, -0.35)}" stroke-width="2.5" fill="none" opacity="0.6" filter="url(#b2)"/>`,
    );
    if (state !== 'closed') {
      const white = band(upper, lower);
      const r = g.eyeH * 0.92;
      out.push(`<clipPath id="${id}"><path d="${white}"/></clipPath>`);
      out.push(`<path d="${white}" fill="#f6f1ec"/>`);
      out.push(`<g clip-path="url(#${id})">
        <circle cx="${x + side * 1}" cy="${g.eyeY + 1}" r="${r}" fill="url(#irisG)"/>
        <circle cx="${x + side * 1}" cy="${g.eyeY + 1}" r="${r * 0.45}" fill="#0b0806"/>
        <circle cx="${x - r * 0.35}" cy="${g.eyeY - r * 0.35}" r="${r * 0.22}" fill="#fff" opacity="0.9"/>
        <circle cx="${x + r * 0.3}" cy="${g.eyeY + r * 0.35}" r="${r * 0.1}" fill="#fff" opacity="0.6"/>
        <path d="${smoothOpen(upper)}" stroke="#000" stroke-width="9" fill="none" opacity="0.25" filter="url(#b2)"/>
      </g>`);
    } else {
      // The closed lid: skin over the eye, a little darker than the brow bone.
      out.push(`<path d="${band(lids(g, side, 'open').upper, lower)}" fill="${shade(p.skin, -0.06)}"/>`);
    }
    const lash = state === 'closed' ? lower.map(([px, py]) => [px, py - 1] as Pt) : upper;
    const lashW = p.feminine ? 4.2 : 3.2;
    out.push(`<path d="${smoothOpen(lash)}" stroke="#1a110c" stroke-width="${lashW}" fill="none" stroke-linecap="round"/>`);
    if (p.feminine) {
      const o = lash[3]!;
      const o2 = lash[2]!;
      out.push(
        `<path d="M${o2[0]},${o2[1]} Q${o[0] + side * 4},${o[1] - 6} ${o[0] + side * 10},${o[1] - 9}" stroke="#1a110c" stroke-width="3" fill="none" stroke-linecap="round"/>`,
      );
    }
    if (state !== 'closed') {
      out.push(`<path d="${smoothOpen(lower)}" stroke="${shade(p.skin, -0.35)}" stroke-width="1.6" fill="none" opacity="0.7"/>`);
    }
  }
  return out.join('');
}

export function brows(p: Person, g: HeadGeometry, state: BrowState): string {
  const out: string[] = [];
  const up = state === 'raised' ? 8 : 0;
  for (const side of [-1, 1]) {
    const x = g.cx + side * g.eyeDX;
    const y = g.browY;
    const t = 7.5 * p.brow.weight;
    const centre: Pt[] = [
      [x - side * 36, y + 8 - up * 0.6],
      [x - side * 10, y - 4 - up],
      [x + side * 18, y - 7 - up * 1.1],
      [x + side * 42, y + 6 - up * 0.7],
    ];
    const thick = [t * 1.05, t, t * 0.75, t * 0.25];
    const top = centre.map(([px, py], i) => [px, py - thick[i]! * 0.6] as Pt);
    const bottom = centre.map(([px, py], i) => [px, py + thick[i]! * 0.5] as Pt);
    out.push(`<path d="${band(top, bottom)}" fill="${p.brow.color}"/>`);
    out.push(`<path d="${band(top, bottom)}" fill="${shade(p.brow.color, 0.2)}" opacity="0.5" filter="url(#b2)"/>`);
  }
  return out.join('');
}

export function mouth(p: Person, g: HeadGeometry, s: MouthShape): string {
  const u = g.mouthUnit;
  const c = lipContours(s, 24, p.face.lipFullness);
  const tr = (pts: [number, number][]) => pts.map(([x, y]) => [g.cx + x * u, g.mouthY + y * u] as Pt);
  const oT = tr(c.outerTop);
  const iT = tr(c.innerTop);
  const iB = tr(c.innerBottom);
  const oB = tr(c.outerBottom);
  const out: string[] = [];
  // Shadow under the lower lip and the philtrum above the upper.
  out.push(
    `<ellipse cx="${g.cx}" cy="${g.mouthY + (c.openHeight * 0.62 + 0.55) * u + 6}" rx="${u * 0.7}" ry="9" fill="${shade(p.skin, -0.3)}" opacity="0.45" filter="url(#b4)"/>`,
  );
  out.push(
    `<path d="M${g.cx - 7},${g.mouthY - u * 0.95} L${g.cx - 5},${g.mouthY - u * 0.4} M${g.cx + 7},${g.mouthY - u * 0.95} L${g.cx + 5},${g.mouthY - u * 0.4}" stroke="${shade(p.skin, -0.2)}" stroke-width="4" opacity="0.35" filter="url(#b2)"/>`,
  );
  if (s.open > 0.02) {
    const inner = band(iT, iB);
    out.push(`<clipPath id="mouthClip"><path d="${inner}"/></clipPath>`);
    out.push(`<path d="${inner}" fill="#2c0f10"/>`);
    const top = g.mouthY - c.openHeight * 0.38 * u;
    const bottom = g.mouthY + c.openHeight * 0.62 * u;
    const hw = c.halfWidth * u;
    const parts: string[] = [];
    if (s.tongue > 0) {
      const ty = bottom - (s.tongue > 0.9 ? (bottom - top) * 0.55 : (bottom - top) * 0.22 * s.tongue);
      parts.push(`<ellipse cx="${g.cx}" cy="${ty + 12}" rx="${hw * 0.55}" ry="16" fill="#b8525a"/>`);
    }
    if (s.upperTeeth > 0) {
      const th = Math.min(12, (bottom - top) * 0.5) * (0.4 + 0.6 * s.upperTeeth);
      parts.push(
        `<path d="M${g.cx - hw * 0.8},${top - 4} L${g.cx + hw * 0.8},${top - 4} L${g.cx + hw * 0.7},${top + th} Q${g.cx},${top + th + 3} ${g.cx - hw * 0.7},${top + th} Z" fill="#f4f0ea"/>`,
      );
      parts.push(
        `<path d="M${g.cx - hw * 0.8},${top + th} Q${g.cx},${top + th + 3} ${g.cx + hw * 0.8},${top + th}" stroke="#c9c0b5" stroke-width="1.5" fill="none"/>`,
      );
    }
    if (s.lowerTeeth > 0) {
      const th = Math.min(9, (bottom - top) * 0.4) * s.lowerTeeth;
      parts.push(
        `<path d="M${g.cx - hw * 0.6},${bottom + 4} L${g.cx + hw * 0.6},${bottom + 4} L${g.cx + hw * 0.55},${bottom - th} Q${g.cx},${bottom - th - 2} ${g.cx - hw * 0.55},${bottom - th} Z" fill="#e8e2d8"/>`,
      );
    }
    if (s.tongue > 0.9) {
      parts.push(
        `<ellipse cx="${g.cx}" cy="${top + (bottom - top) * 0.62}" rx="${hw * 0.42}" ry="${(bottom - top) * 0.3}" fill="#c9636a"/>`,
      );
    }
    out.push(
      `<g clip-path="url(#mouthClip)">${parts.join('')}<path d="${smoothOpen(iT)}" stroke="#000" stroke-width="6" opacity="0.35" fill="none" filter="url(#b2)"/></g>`,
    );
  }
  out.push(`<path d="${band(oT, iT)}" fill="url(#lipUG)"/>`);
  out.push(`<path d="${band(iB, oB)}" fill="url(#lipLG)"/>`);
  const hl = oB[12]!;
  out.push(
    `<ellipse cx="${hl[0] - 4}" cy="${(hl[1] + iB[12]![1]) / 2 + 1}" rx="${u * 0.32}" ry="${u * 0.09}" fill="#fff" opacity="0.28" filter="url(#b2)"/>`,
  );
  out.push(
    `<path d="${smoothOpen(iT)}" stroke="${shade(p.lips, -0.55)}" stroke-width="${s.open > 0.02 ? 1.2 : 2.4}" fill="none" stroke-linecap="round" opacity="0.9"/>`,
  );
  for (const end of [iT[0]!, iT[iT.length - 1]!]) {
    out.push(`<circle cx="${end[0]}" cy="${end[1]}" r="2.6" fill="${shade(p.skin, -0.4)}" opacity="0.6" filter="url(#b2)"/>`);
  }
  return out.join('');
}
