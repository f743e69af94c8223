// Haircuts: a back piece (behind the head, the "back" layer) and a front piece (over the
// forehead, part of the head layer), both with strand texture and a soft sheen.
import type { Person } from '../people';
import type { HeadGeometry } from './geometry';
import { mirrorX, rng, shade, smoothClosed, smoothOpen, type Pt } from './paths';

interface HairParts {
  back: string;
  front: string;
}

function strands(color: string, clipId: string, lines: Pt[][], width = 3, opacity = 0.35): string {
  const light = shade(color, 0.28);
  const dark = shade(color, -0.35);
  return `<g clip-path="url(#${clipId})">${lines
    .map(
      (l, i) =>
        `<path d="${smoothOpen(l)}" stroke="${i % 3 === 0 ? dark : light}" stroke-width="${width}" fill="none" opacity="${opacity}" stroke-linecap="round"/>`,
    )
    .join('')}</g>`;
}

function sheen(color: string, clipId: string, pts: Pt[], w = 26): string {
  return `<g clip-path="url(#${clipId})"><path d="${smoothOpen(pts)}" stroke="${shade(color, 0.45)}" stroke-width="${w}" fill="none" opacity="0.32" filter="url(#b8)"/></g>`;
}

function piece(id: string, d: string, color: string, extra = ''): string {
  return `<clipPath id="${id}"><path d="${d}"/></clipPath><path d="${d}" fill="${color}"/>${extra}`;
}

/** A cap over the skull from temple to temple, above a hairline. */
function cap(g: HeadGeometry, volume: number, hairline: Pt[]): Pt[] {
  const { cx, faceHalfW: fw } = g;
  const right: Pt[] = [
    [cx + fw * 1.04, g.browY - 2],
    [cx + fw * 1.08 + volume * 0.3, g.skullTop + 95],
    [cx + fw * 0.78 + volume * 0.3, g.skullTop + 10 - volume * 0.5],
  ];
  const top: Pt = [cx, g.skullTop - 8 - volume];
  const left = mirrorX(right, cx);
  return [...left, top, ...[...right].reverse(), ...[...hairline].reverse()];
}

export function hair(p: Person, g: HeadGeometry): HairParts {
  const c = p.hair.color;
  const { cx, faceHalfW: fw } = g;
  const r = rng(p.id.length * 7919 + p.id.charCodeAt(4));
  switch (p.hair.style) {
    case 'afro': {
      const pts: Pt[] = [];
      for (let i = 0; i < 64; i++) {
        const a = (i / 64) * Math.PI * 2;
        const wobble = 9 * Math.sin(a * 5 + 1) + 6 * Math.sin(a * 9 + 2) + (r() - 0.5) * 14;
        const flat = Math.sin(a) > 0.55 ? (Math.sin(a) - 0.55) * 120 : 0; // narrower near the jaw
        pts.push([cx + Math.cos(a) * (228 + wobble - flat * 0.6), 318 + Math.sin(a) * (214 + wobble - flat)]);
      }
      const puffs: string[] = [];
      for (let i = 0; i < 46; i++) {
        const a = (i / 46) * Math.PI * 2 + r() * 0.1;
        const flat = Math.sin(a) > 0.55 ? (Math.sin(a) - 0.55) * 120 : 0;
        const rr = 200 - flat;
        puffs.push(
          `<circle cx="${(cx + Math.cos(a) * rr).toFixed(1)}" cy="${(318 + Math.sin(a) * (rr - 12)).toFixed(1)}" r="${(26 + r() * 14).toFixed(1)}" fill="${c}"/>`,
        );
      }
      const curls: string[] = [];
      for (let i = 0; i < 420; i++) {
        const a = r() * Math.PI * 2;
        const d = Math.sqrt(r());
        const x = cx + Math.cos(a) * 228 * d;
        const y = 322 + Math.sin(a) * 214 * d;
        const rad = 5 + r() * 7;
        curls.push(
          `<path d="M${x - rad},${y} a${rad},${rad} 0 1,1 ${rad * 1.6},${rad * 0.8}" stroke="${r() < 0.5 ? shade(c, 0.22) : shade(c, -0.4)}" stroke-width="2.4" fill="none" opacity="0.55"/>`,
        );
      }
      const hairline: Pt[] = [
        [cx - fw * 1.02, g.browY - 10],
        [cx - fw * 0.78, 280],
        [cx - 30, 252],
        [cx + 30, 252],
        [cx + fw * 0.78, 280],
        [cx + fw * 1.02, g.browY - 10],
      ];
      const frontPts = cap(g, 40, hairline);
      return {
        back:
          puffs.join('') +
          piece('hairBack', smoothClosed(pts), c, `<g clip-path="url(#hairBack)">${curls.join('')}</g>`) +
          sheen(
            c,
            'hairBack',
            [
              [cx - 170, 220],
              [cx - 60, 140],
              [cx + 80, 150],
            ],
            40,
          ),
        front: piece('hairFront', smoothClosed(frontPts), c, `<g clip-path="url(#hairFront)">${curls.slice(0, 160).join('')}</g>`),
      };
    }
    case 'sideSwept':
    case 'quiff': {
      const hairline: Pt[] = [
        [cx - fw * 1.03, g.browY + 4],
        [cx - fw * 0.86, 292],
        [cx - 48, 258],
        [cx + 24, 270],
        [cx + fw * 0.72, 292],
        [cx + fw * 1.03, g.browY + 2],
      ];
      const d = smoothClosed(cap(g, 34, hairline));
      const lines: Pt[][] = [];
      for (let i = 0; i < 30; i++) {
        const k = i / 29;
        const y0 = g.skullTop - 20 + k * 80;
        // Swept from the parting over to the right, and shorter strokes down the left side.
        lines.push([
          [cx - 48, y0 + 6],
          [cx + 10, y0 - 18 + k * 10],
          [cx + fw * 0.7, y0 + 10 + k * 30],
          [cx + fw * 1.05, y0 + 70 + k * 60],
        ]);
        lines.push([
          [cx - 50, y0 + 4],
          [cx - fw * 0.6, y0 + 14 + k * 20],
          [cx - fw * 1.02, y0 + 60 + k * 70],
        ]);
      }
      const sideburns = [-1, 1]
        .map(
          (s) =>
            `<path d="${smoothClosed([
              [cx + s * fw * 1.03, g.browY - 6],
              [cx + s * fw * 0.94, g.browY + 4],
              [cx + s * fw * 0.95, g.eyeY + 30],
              [cx + s * fw * 1.0, g.eyeY + 34],
            ])}" fill="${shade(c, -0.1)}"/>`,
        )
        .join('');
      return {
        back: '',
        front:
          sideburns +
          piece(
            'hairFront',
            d,
            c,
            strands(c, 'hairFront', lines, 3, 0.4) +
              sheen(c, 'hairFront', [
                [cx - 90, 215],
                [cx, 190],
                [cx + 90, 212],
              ]),
          ),
      };
    }
    case 'cropped':
    case 'curlyShort': {
      const hairline: Pt[] = [
        [cx - fw * 1.03, g.browY - 2],
        [cx - fw * 0.8, 278],
        [cx, 254],
        [cx + fw * 0.8, 278],
        [cx + fw * 1.03, g.browY - 2],
      ];
      const d = smoothClosed(cap(g, 30, hairline));
      const lines: Pt[][] = [];
      for (let i = 0; i < 90; i++) {
        const x = cx + (r() - 0.5) * fw * 2.1;
        const y = 170 + r() * 110;
        lines.push([
          [x, y],
          [x + 6 + r() * 6, y - 8 - r() * 8],
        ]);
      }
      const sideburns = [-1, 1]
        .map(
          (s) =>
            `<path d="${smoothClosed([
              [cx + s * fw * 1.03, g.browY - 8],
              [cx + s * fw * 0.93, g.browY],
              [cx + s * fw * 0.94, g.eyeY + 36],
              [cx + s * fw * 1.0, g.eyeY + 40],
            ])}" fill="${c}"/>`,
        )
        .join('');
      return {
        back: '',
        front:
          sideburns +
          piece(
            'hairFront',
            d,
            c,
            strands(c, 'hairFront', lines, 3, 0.45) +
              sheen(
                c,
                'hairFront',
                [
                  [cx - 80, 200],
                  [cx, 180],
                  [cx + 80, 200],
                ],
                20,
              ),
          ),
      };
    }
    case 'buzz': {
      const hairline: Pt[] = [
        [cx - fw * 1.01, g.browY - 14],
        [cx - fw * 0.78, 268],
        [cx, 246],
        [cx + fw * 0.78, 268],
        [cx + fw * 1.01, g.browY - 14],
      ];
      const d = smoothClosed(cap(g, 4, hairline));
      const dots: string[] = [];
      for (let i = 0; i < 900; i++) {
        const x = cx + (r() - 0.5) * fw * 2.2;
        const y = 150 + r() * 200;
        dots.push(
          `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(0.8 + r() * 1.2).toFixed(1)}" fill="${r() < 0.5 ? shade(c, 0.3) : '#000'}" opacity="0.5"/>`,
        );
      }
      return {
        back: '',
        front: piece(
          'hairFront',
          d,
          c,
          `<g clip-path="url(#hairFront)">${dots.join('')}</g>` +
            sheen(
              c,
              'hairFront',
              [
                [cx - 80, 200],
                [cx, 176],
                [cx + 80, 196],
              ],
              22,
            ),
        ),
      };
    }
    case 'bob': {
      const backPts: Pt[] = [
        [cx, g.skullTop - 28],
        [cx + fw + 40, 250],
        [cx + fw + 52, 430],
        [cx + fw + 44, 590],
        [cx + fw - 10, 612],
        [cx - fw + 10, 612],
        [cx - fw - 44, 590],
        [cx - fw - 52, 430],
        [cx - fw - 40, 250],
      ];
      // Bangs: a straight fringe over the forehead, the sides down to the jaw.
      const front: Pt[] = [
        [cx - fw - 46, 420],
        [cx - fw - 30, 240],
        [cx - 40, g.skullTop - 24],
        [cx + fw * 0.5, g.skullTop - 14],
        [cx + fw + 30, 240],
        [cx + fw + 46, 420],
        [cx + fw + 36, 598],
        [cx + fw - 14, 604],
        [cx + fw * 0.9, 470],
        [cx + fw * 0.9, 350],
        [cx + fw * 0.55, 334],
        [cx, 338],
        [cx - fw * 0.55, 334],
        [cx - fw * 0.9, 350],
        [cx - fw * 0.9, 470],
        [cx - fw + 14, 604],
        [cx - fw - 36, 598],
      ];
      const lines: Pt[][] = [];
      for (let i = 0; i < 40; i++) {
        const x = cx - fw - 40 + (i / 39) * (2 * fw + 80);
        lines.push([
          [cx + (x - cx) * 0.2, g.skullTop - 10],
          [x, 300],
          [x + (x - cx) * 0.05, 600],
        ]);
      }
      return {
        back: piece('hairBack', smoothClosed(backPts), shade(c, -0.1)),
        front: piece(
          'hairFront',
          smoothClosed(front, 0.9),
          c,
          strands(c, 'hairFront', lines, 2.5, 0.35) +
            sheen(
              c,
              'hairFront',
              [
                [cx - 110, 230],
                [cx - 20, 190],
                [cx + 90, 210],
              ],
              30,
            ),
        ),
      };
    }
    case 'longWavy':
    case 'longStraight':
    case 'ponytail':
    case 'headscarf': {
      const wave = (y: number) => (p.hair.style === 'longWavy' ? Math.sin(y / 38) * 14 : 0);
      const backR: Pt[] = [];
      for (let y = 280; y <= 860; y += 40)
        backR.push([cx + fw + 8 + Math.min(50, (y - 280) * 0.35) + wave(y) + (y > 700 ? (y - 700) * 0.25 : 0), y]);
      const backPts: Pt[] = [[cx, g.skullTop - 30], ...backR, [cx + 60, 880], [cx - 60, 880], ...mirrorX(backR, cx).reverse()];
      const hairline: Pt[] = [
        [cx - fw * 1.0, g.browY + 30],
        [cx - fw * 0.75, 290],
        [cx + 24, 256],
        [cx + fw * 0.75, 282],
        [cx + fw * 1.0, g.browY + 30],
      ];
      const capPts = cap(g, 28, hairline);
      const locks: string[] = [];
      for (const s of [-1, 1]) {
        const lock: Pt[] = [[cx + s * fw * 0.98, g.browY - 20]];
        for (let y = g.browY + 20; y <= 720; y += 45)
          lock.push([cx + s * (fw * 0.97 + (y > 560 ? (y - 560) * 0.35 : 0)) + wave(y + 20), y]);
        const outer: Pt[] = [];
        for (let y = 720; y >= g.browY - 40; y -= 45) outer.push([cx + s * (fw + 46 + (y > 560 ? (y - 560) * 0.4 : 0)) + wave(y), y]);
        locks.push(`<path d="${smoothClosed([...lock, ...outer])}" fill="${c}"/>`);
      }
      const lines: Pt[][] = [];
      for (let i = 0; i < 36; i++) {
        const s = i % 2 ? 1 : -1;
        const k = (i >> 1) / 18;
        lines.push([
          [cx + 24, g.skullTop - 4],
          [cx + 24 + s * (20 + k * fw * 0.9), g.skullTop + 30 + k * 40],
          [cx + s * (fw * 0.95 + k * 30), 300 + k * 30],
          [cx + s * (fw + 24 + k * 24) + wave(500), 520 + k * 160],
        ]);
      }
      return {
        back: piece('hairBack', smoothClosed(backPts), shade(c, -0.08), strands(c, 'hairBack', lines, 3, 0.3)),
        front:
          locks.join('') +
          piece(
            'hairFront',
            smoothClosed(capPts),
            c,
            strands(c, 'hairFront', lines, 3, 0.35) +
              sheen(
                c,
                'hairFront',
                [
                  [cx - 100, 226],
                  [cx, 192],
                  [cx + 100, 220],
                ],
                28,
              ),
          ),
      };
    }
  }
}
