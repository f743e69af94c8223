// Neck, shoulders and clothes (the "body" layer), and accessories drawn with the head.
import type { Person } from '../people';
import { CX, H, type HeadGeometry } from './geometry';
import { faceOutline } from './face';
import { band, mirrorX, rng, shade, smoothClosed, smoothOpen, type Pt } from './paths';

export function body(p: Person, g: HeadGeometry): string {
  const nw = g.neckHalfW;
  const k = p.feminine ? 0.9 : 1;
  const neck: Pt[] = [
    [CX - nw, 500],
    [CX + nw, 500],
    [CX + nw + 4, 690],
    [CX + nw + 30, 740],
    [CX - nw - 30, 740],
    [CX - nw - 4, 690],
  ];
  const right: Pt[] = [
    [CX + nw + 6, 692],
    [CX + 150 * k, 716],
    [CX + 262 * k, 750],
    [CX + 322 * k, 810],
    [CX + 348 * k, 900],
    [CX + 356 * k, H + 10],
  ];
  /** The right shoulder line from x = CX + from outwards (clothes with wide necklines start there). */
  const shoulderFrom = (from: number): Pt[] => {
    const pts = right.filter(([x]) => x > CX + from + 4);
    const a = right.filter(([x]) => x <= CX + from + 4).pop() ?? right[0]!;
    const b = pts[0]!;
    const t = (CX + from - a[0]) / (b[0] - a[0] || 1);
    return [[CX + from, a[1] + (b[1] - a[1]) * Math.max(0, Math.min(1, t))], ...pts];
  };
  const clothWith = (nl: Pt[]) => {
    const w = nl[nl.length - 1]![0] - CX;
    const r = shoulderFrom(w);
    return smoothOpen([...mirrorX(r, CX).reverse(), ...nl.slice(1, -1), ...r]) + `L${CX + 356 * k},${H + 10} L${CX - 356 * k},${H + 10}Z`;
  };
  const torso: Pt[] = [...mirrorX(right, CX).reverse(), ...right];
  const { main, accent } = p.outfit;
  const out: string[] = [];
  out.push(
    `<linearGradient id="clothG" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${shade(main, 0.06)}"/><stop offset="0.55" stop-color="${main}"/><stop offset="1" stop-color="${shade(main, -0.25)}"/></linearGradient>`,
  );
  out.push(`<path d="${smoothClosed(neck)}" fill="url(#neckG)"/>`);
  // The jaw's shadow on the neck.
  out.push(
    `<ellipse cx="${CX + 8}" cy="${g.chinY - 20}" rx="${nw + 20}" ry="46" fill="${shade(p.skin, -0.45)}" opacity="0.5" filter="url(#b8)"/>`,
  );
  const bodyD = smoothOpen(torso) + `L${CX + 356 * k},${H + 10} L${CX - 356 * k},${H + 10}Z`;
  const neckLine = (depth: number, width: number): Pt[] => [
    [CX - width, 694],
    [CX - width * 0.6, 694 + depth * 0.7],
    [CX, 694 + depth],
    [CX + width * 0.6, 694 + depth * 0.7],
    [CX + width, 694],
  ];
  // Skin of the chest and collarbones, under clothes with open necklines.
  const chest =
    `<path d="${bodyD}" fill="${shade(p.skin, -0.04)}"/>` +
    [-1, 1]
      .map(
        (s) =>
          `<path d="${smoothOpen([
            [CX + s * (nw - 10), 716],
            [CX + s * (nw + 40), 722],
            [CX + s * (nw + 90), 716],
          ])}" stroke="${shade(p.skin, -0.3)}" stroke-width="5" fill="none" opacity="0.4" filter="url(#b2)"/>`,
      )
      .join('');
  const cloth = (d: string) => `<path d="${d}" fill="url(#clothG)"/>`;
  const folds = (seed: number) => {
    const r = rng(seed);
    const lines: string[] = [];
    for (const s of [-1, 1]) {
      const x = CX + s * (230 + r() * 30) * k;
      lines.push(
        `<path d="${smoothOpen([
          [x, 800],
          [x - s * 18, 880],
          [x - s * 10, 960],
        ])}" stroke="${shade(main, -0.35)}" stroke-width="14" opacity="0.22" fill="none" filter="url(#b8)"/>`,
      );
    }
    return lines.join('');
  };
  switch (p.outfit.kind) {
    case 'scoop':
    case 'blouse':
    case 'vneck':
    case 'tee': {
      const nl =
        p.outfit.kind === 'vneck'
          ? ([
              [CX - nw - 34, 694],
              [CX - 24, 770],
              [CX, 808],
              [CX + 24, 770],
              [CX + nw + 34, 694],
            ] as Pt[])
          : p.outfit.kind === 'scoop'
            ? neckLine(96, nw + 46)
            : p.outfit.kind === 'tee'
              ? neckLine(34, nw + 12)
              : neckLine(60, nw + 30);
      out.push(chest);
      out.push(cloth(clothWith(nl)));
      out.push(
        `<path d="${smoothOpen(nl)}" stroke="${accent}" stroke-width="${p.outfit.kind === 'tee' ? 10 : 5}" fill="none" stroke-linecap="round"/>`,
      );
      if (p.outfit.kind === 'blouse') {
        for (let i = 0; i < 4; i++) out.push(`<circle cx="${CX}" cy="${770 + i * 48}" r="5" fill="${shade(accent, 0.4)}"/>`);
        out.push(
          `<path d="${smoothOpen([
            [CX, 755],
            [CX, 960],
          ])}" stroke="${accent}" stroke-width="3" opacity="0.7"/>`,
        );
      }
      out.push(folds(11));
      break;
    }
    case 'sweater': {
      const nl = neckLine(30, nw + 10);
      out.push(cloth(clothWith(nl)));
      out.push(`<path d="${smoothOpen(nl)}" stroke="${accent}" stroke-width="22" fill="none" stroke-linecap="round"/>`);
      for (let i = -8; i <= 8; i++) {
        const x = CX + (i * (nw + 10)) / 8.5;
        const y = 694 + 30 * (1 - Math.pow(i / 8.5, 2)) * 0.95;
        out.push(`<path d="M${x},${y - 9} L${x},${y + 9}" stroke="${shade(accent, -0.25)}" stroke-width="2" opacity="0.6"/>`);
      }
      out.push(
        `<path d="${smoothOpen([
          [CX - 200 * k, 960],
          [CX - 170 * k, 860],
          [CX - 180 * k, 790],
        ])}" stroke="${shade(main, -0.3)}" stroke-width="4" fill="none" opacity="0.4"/>`,
      );
      out.push(
        `<path d="${smoothOpen([
          [CX + 200 * k, 960],
          [CX + 170 * k, 860],
          [CX + 180 * k, 790],
        ])}" stroke="${shade(main, -0.3)}" stroke-width="4" fill="none" opacity="0.4"/>`,
      );
      out.push(folds(23));
      break;
    }
    case 'blazer':
    case 'shirt': {
      out.push(cloth(bodyD));
      // The shirt in the opening, its collar, then the lapels.
      const opening: Pt[] = [
        [CX - nw - 8, 690],
        [CX - 60, 800],
        [CX, 960],
        [CX + 60, 800],
        [CX + nw + 8, 690],
      ];
      out.push(`<path d="${smoothClosed(opening, 0.3)}" fill="${accent}"/>`);
      out.push(
        `<path d="${smoothClosed(
          [
            [CX - nw - 6, 684],
            [CX - nw + 4, 730],
            [CX - 6, 768],
            [CX - 26, 800],
            [CX - nw - 26, 742],
          ],
          0.4,
        )}" fill="${shade(accent, -0.05)}" stroke="${shade(accent, -0.2)}" stroke-width="2"/>`,
      );
      out.push(
        `<path d="${smoothClosed(
          [
            [CX + nw + 6, 684],
            [CX + nw - 4, 730],
            [CX + 6, 768],
            [CX + 26, 800],
            [CX + nw + 26, 742],
          ],
          0.4,
        )}" fill="${shade(accent, -0.12)}" stroke="${shade(accent, -0.25)}" stroke-width="2"/>`,
      );
      for (const s of [-1, 1]) {
        const lapel: Pt[] = [
          [CX + s * (nw + 14), 700],
          [CX + s * (nw + 60), 730],
          [CX + s * 110, 800],
          [CX + s * 70, 830],
          [CX + s * 20, 960],
          [CX + s * 6, 960],
          [CX + s * 50, 820],
        ];
        out.push(
          `<path d="${smoothClosed(lapel, 0.3)}" fill="${shade(main, s < 0 ? 0.06 : -0.12)}" stroke="${shade(main, -0.45)}" stroke-width="2.5"/>`,
        );
      }
      out.push(folds(5));
      break;
    }
    case 'hoodie': {
      const hood: Pt[] = [
        [CX - nw - 70, 730],
        [CX - nw - 40, 662],
        [CX, 650],
        [CX + nw + 40, 662],
        [CX + nw + 70, 730],
        [CX, 790],
      ];
      out.push(cloth(bodyD));
      out.push(`<path d="${smoothClosed(hood)}" fill="${shade(main, -0.2)}"/>`);
      const nl: Pt[] = [
        [CX - nw - 10, 700],
        [CX - 30, 760],
        [CX, 790],
        [CX + 30, 760],
        [CX + nw + 10, 700],
      ];
      out.push(
        `<path d="${band(
          nl,
          nl.map(([x, y]) => [x, y - 26] as Pt),
        )}" fill="${shade(p.skin, -0.1)}"/>`,
      );
      out.push(`<path d="${smoothOpen(nl)}" stroke="${accent}" stroke-width="14" fill="none" stroke-linecap="round"/>`);
      for (const s of [-1, 1])
        out.push(
          `<path d="${smoothOpen([
            [CX + s * 34, 772],
            [CX + s * 40, 850],
            [CX + s * 36, 910],
          ])}" stroke="#f1efe9" stroke-width="6" fill="none" stroke-linecap="round"/>`,
        );
      out.push(folds(17));
      break;
    }
  }
  out.push(`<path d="${bodyD}" fill="#000" opacity="0.0"/>`);
  if (p.extras.necklace) {
    out.push(
      `<path d="${smoothOpen([
        [CX - nw - 8, 700],
        [CX - 30, 748],
        [CX, 756],
        [CX + 30, 748],
        [CX + nw + 8, 700],
      ])}" stroke="${p.extras.necklace}" stroke-width="3" fill="none"/>`,
    );
    out.push(
      `<circle cx="${CX}" cy="${764}" r="8" fill="${p.extras.necklace}" stroke="${shade(p.extras.necklace, -0.3)}" stroke-width="2"/>`,
    );
  }
  return out.join('');
}

export function beard(p: Person, g: HeadGeometry): string {
  if (!p.extras.beard) return '';
  const c = p.hair.color;
  const { cx, mouthY } = g;
  // The beard is the face below a cheek line, a little fuller than the face, minus the mouth.
  const grown = faceOutline(g).map(([x, y]) => [cx + (x - cx) * 1.05, g.eyeY + (y - g.eyeY) * 1.04] as Pt);
  const cheekLine: Pt[] = [
    [cx - g.faceHalfW * 1.1, g.earY - 20],
    [cx - g.faceHalfW * 0.82, g.noseY + 4],
    [cx - 52, g.noseY + 36],
    [cx + 52, g.noseY + 36],
    [cx + g.faceHalfW * 0.82, g.noseY + 4],
    [cx + g.faceHalfW * 1.1, g.earY - 20],
    [cx + 300, 700],
    [cx - 300, 700],
  ];
  const opening = `M${cx - 46},${mouthY + 4} a46,34 0 1,0 92,0 a46,34 0 1,0 -92,0Z`;
  const mustache: Pt[] = [
    [cx - 56, mouthY - 2],
    [cx - 34, mouthY - 28],
    [cx, mouthY - 25],
    [cx + 34, mouthY - 28],
    [cx + 56, mouthY - 2],
    [cx + 30, mouthY - 16],
    [cx, mouthY - 15],
    [cx - 30, mouthY - 16],
  ];
  const region = `<clipPath id="beardGrown"><path d="${smoothClosed(grown)}"/></clipPath><clipPath id="beardCheek"><path d="${smoothClosed(cheekLine, 0.6)} ${opening}" clip-rule="evenodd"/></clipPath>`;
  if (p.extras.beard === 'stubble') {
    return `${region}<g clip-path="url(#faceClip)"><g clip-path="url(#beardCheek)"><rect x="${cx - 200}" y="${g.noseY - 40}" width="400" height="220" fill="${shade(c, -0.3)}" opacity="0.13" filter="url(#b8)"/></g></g>
      <path d="${smoothClosed(mustache)}" fill="${shade(c, -0.3)}" opacity="0.16" filter="url(#b2)"/>`;
  }
  const r = rng(99);
  const hairs: string[] = [];
  for (let i = 0; i < 700; i++) {
    const x = cx + (r() - 0.5) * g.faceHalfW * 2.2;
    const y = g.noseY + r() * (g.chinY - g.noseY + 30);
    hairs.push(
      `<path d="M${x.toFixed(1)},${y.toFixed(1)} l${((r() - 0.5) * 4).toFixed(1)},${(4 + r() * 5).toFixed(1)}" stroke="${r() < 0.5 ? shade(c, 0.3) : '#000'}" stroke-width="1.6" opacity="0.5"/>`,
    );
  }
  return `${region}<g clip-path="url(#beardGrown)"><g clip-path="url(#beardCheek)">
      <rect x="${cx - 200}" y="${g.noseY - 40}" width="400" height="240" fill="${c}" opacity="0.9"/>${hairs.join('')}</g></g>
    <path d="${smoothClosed(mustache)}" fill="${c}" opacity="0.95"/>`;
}

export function glasses(p: Person, g: HeadGeometry): string {
  if (!p.extras.glasses) return '';
  const c = p.extras.glasses;
  const parts: string[] = [];
  for (const s of [-1, 1]) {
    const x = g.cx + s * g.eyeDX;
    parts.push(
      `<rect x="${x - 42}" y="${g.eyeY - 30}" width="84" height="58" rx="20" fill="#dfe8f0" fill-opacity="0.12" stroke="${c}" stroke-width="5"/>`,
    );
    parts.push(`<path d="M${x - 24},${g.eyeY - 20} l18,-6" stroke="#fff" stroke-width="4" opacity="0.5" stroke-linecap="round"/>`);
    parts.push(`<path d="M${x + s * 42},${g.eyeY - 16} L${g.cx + s * (g.faceHalfW + 4)},${g.eyeY - 22}" stroke="${c}" stroke-width="5"/>`);
  }
  parts.push(
    `<path d="M${g.cx - g.eyeDX + 42},${g.eyeY - 8} Q${g.cx},${g.eyeY - 20} ${g.cx + g.eyeDX - 42},${g.eyeY - 8}" stroke="${c}" stroke-width="5" fill="none"/>`,
  );
  return parts.join('');
}

export function earrings(p: Person, g: HeadGeometry): string {
  if (!p.extras.earrings) return '';
  const c = p.extras.earrings;
  return [-1, 1]
    .map((s) => {
      const x = g.cx + s * (g.faceHalfW * 0.97 + 6);
      return `<circle cx="${x}" cy="${g.earY + 58}" r="13" fill="none" stroke="${c}" stroke-width="4"/><circle cx="${x - 3}" cy="${g.earY + 46}" r="3" fill="${shade(c, 0.5)}"/>`;
    })
    .join('');
}
