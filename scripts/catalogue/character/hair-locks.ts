// Locks of hair on a sculpted hair mass: the mass is divided, across the way the hair lies,
// into locks of uneven width and height, each rounded over with a narrow crease to the next,
// in two layers (the upper one wider), wandering a little along their length. Regular ridges
// read as a knitted cap (issue 18); uneven rounded locks with dark creases read as hair.
// A finer layer only in colour gives strand-direction streaks inside each lock.
import type { Person } from '../people';
import type { Sdf, V3 } from '../mesh/sdf';

/** Where a point lies in the hair's flow: `across` (radians round the flow's axis), `along` (m). */
interface Flow {
  across: number;
  along: number;
}

type Style = Person['hair']['style'];

/** Styles with locks: not the scarf, curls, buzz cuts or afros (they have their own surface). */
export const hasLocks = (style: Style) => !(style === 'headscarf' || style === 'curlyShort' || style === 'buzz' || style === 'afro');

/** Combed back (from the front hairline towards the crown and the nape) or falling from the crown. */
const combedBack = (style: Style) => style === 'ponytail' || style === 'quiff' || style === 'sideSwept';

function flowAt(style: Style, q: V3): Flow {
  const [x, y, z] = q;
  if (combedBack(style)) return { across: Math.atan2(x, y + 0.06), along: z };
  return { across: Math.atan2(x, z + 0.02), along: y };
}

/** 0..1 from an integer: each lock's own height and shade. */
const hash = (i: number) => {
  const s = Math.sin(i * 127.1 + 311.7) * 43758.5453;
  return s - Math.floor(s);
};

/**
 * One layer of locks: `count` per turn on average, of uneven widths (a monotonic warp of the angle), each lock's cross-section rounded (1 on its crest,
 * 0 in the crease), its height varied by `hash`.
 */
function layer(a: number, count: number, phase: number): { bulge: number; id: number } {
  const t = (a / (2 * Math.PI)) * count + phase;
  // Slope 1 ± 0.47: never folds back, widths 0.7 … 1.9 of the mean.
  const u = t + 0.6 * Math.sin(t * 0.37 + phase * 3.1) + 0.4 * Math.sin(t * 0.61 + 2.3 + phase);
  const id = Math.floor(u);
  const f = u - id;
  const round = Math.pow(Math.max(0, 1 - (2 * f - 1) * (2 * f - 1)), 0.6);
  return { bulge: round * (0.65 + 0.35 * hash(id + phase * 1000)), id };
}

/** How much of a lock's crest a point is on (0 in a crease … 1 on the top of a high lock), and the lock. */
export function lockAt(style: Style, q: V3): { bulge: number; id: number; streak: number } {
  const { across, along } = flowAt(style, q);
  // Locks wander along their length, so their borders are not straight lines.
  const a = across + 0.06 * Math.sin(along * 45 + across * 3) + 0.03 * Math.sin(along * 97 + 1.7);
  const top = layer(a, 22, 0.13);
  const under = layer(a, 37, 0.71);
  // Strands inside the locks: a fine, uneven streak (colour only: too fine for the surface).
  const streak = 0.5 + 0.3 * Math.sin(a * 61 + 2 * Math.sin(along * 30)) + 0.2 * Math.sin(a * 113 + 1.1);
  return top.bulge >= 0.8 * under.bulge ? { ...top, streak } : { bulge: 0.8 * under.bulge, id: under.id + 5000, streak };
}

/**
 * Clumps: a few broad locks (about eight round the head), each rising and falling along its
 * length, under the finer locks. They break the hair's outline in every view, so its silhouette
 * is hair, not a smoothed helmet grooved all over.
 */
export function clumpAt(style: Style, q: V3): number {
  const { across, along } = flowAt(style, q);
  const a = across + 0.12 * Math.sin(along * 18 + across * 2);
  const { bulge, id } = layer(a, 8, 0.37);
  return bulge * (0.7 + 0.3 * Math.sin(along * 70 + id * 2.1));
}

/** The hair's surface with its clumps and locks: crests stand out, creases sink. */
export function withLocks(style: Style, sdf: Sdf, depth = 0.0026, clumps = 0.009): Sdf {
  if (!hasLocks(style)) return sdf;
  return (x, y, z) => {
    const d = sdf(x, y, z);
    if (d > 0.01 || d < -0.01) return d;
    const q: V3 = [x, y, z];
    return d - depth * (lockAt(style, q).bulge - 0.55) - clumps * (clumpAt(style, q) - 0.5);
  };
}

/**
 * Curls: round clumps about a centimetre across on jittered cells (each clump a rounded bump
 * of its own), so tight curls read as separate coils with dark gaps, not as a knit of sine bumps.
 */
export function curlAt(q: V3, size = 0.0105): { bulge: number; id: number } {
  const c = q.map((v) => Math.floor(v / size));
  let none = 1,
    top = 0,
    id = 0;
  // The clumps' bumps combined smoothly (each fades to flat at its rim): where the nearest
  // clump decided, clumps of different heights met in a step or a sharp crease, which surface
  // nets turned into spikes that caught the light as white specks.
  for (let i = -1; i <= 1; i++)
    for (let j = -1; j <= 1; j++)
      for (let k = -1; k <= 1; k++) {
        const cell = [c[0]! + i, c[1]! + j, c[2]! + k];
        const n = cell[0]! * 73856093 + cell[1]! * 19349663 + cell[2]! * 83492791;
        const p = [0, 1, 2].map((a) => (cell[a]! + 0.15 + 0.7 * hash(n + a * 17)) * size);
        const r = Math.hypot(q[0] - p[0]!, q[1] - p[1]!, q[2] - p[2]!) / (0.8 * size);
        const b = Math.pow(Math.max(0, 1 - r * r), 2) * (0.7 + 0.3 * hash(n));
        none *= 1 - b;
        if (b > top) [top, id] = [b, n];
      }
  const bulge = 1 - none;
  return { bulge, id };
}
