// Locks of hair on a sculpted hair mass: the mass is divided, across the way the hair lies,
// into locks of uneven width and height, each rounded over with a narrow crease to the next,
// wandering a little along their length, over a few broad clumps. Regular ridges read as a
// knitted cap (issue 18); uneven rounded locks with fine creases read as hair.
// Strands are finer than the mesh: a texture along the flow (hair-texture.ts).
import type { Person } from '../people';
import { smoothstep, type Sdf, type V3 } from '../mesh/sdf';

/**
 * Where a point lies in the hair's flow: `across` (radians round the flow's axis) and `along`
 * (metres along the strand, from where it starts). `along` follows the strand's arc: measured as
 * a coordinate (z for combed-back hair) it barely changes where the strand turns down the back
 * of the head, and every pattern along it drew contour rings there (wood grain).
 */
export interface Flow {
  across: number;
  along: number;
  /** Distance (m) from the flow's axis: where the locks converge (a crown, a nape), they narrow to nothing. */
  radius: number;
}

type Style = Person['hair']['style'];

/** Styles with locks: not the scarf, curls, buzz cuts or afros (they have their own surface). */
export const hasLocks = (style: Style) => !(style === 'headscarf' || style === 'curlyShort' || style === 'buzz' || style === 'afro');

/** Combed back (from the front hairline towards the crown and the nape) or falling from the crown. */
const combedBack = (style: Style) => style === 'ponytail' || style === 'quiff' || style === 'sideSwept';

/** The ponytail's tail hangs from the tie (hair3d.ts: tie at y 0.04, z -0.098): its own flow, straight down. */
const inTail = (style: Style, [, y, z]: V3) => style === 'ponytail' && y < 0.03 && z < -0.108;

/**
 * How little the tail is grooved (1: not at all). It is narrow (2.6 → 1 cm), where the head's
 * clumps made it lumpy, and it is 1 wherever its flow meets the head's, so the surface has no step there.
 */
const smoothTail = (style: Style, [, y, z]: V3) => (style === 'ponytail' ? smoothstep(0.05, 0.03, y) * smoothstep(-0.096, -0.108, z) : 0);

export function flowAt(style: Style, q: V3): Flow {
  let [x, , z] = q;
  const y = q[1];
  if (inTail(style, q)) return { across: Math.atan2(x, z + 0.118), along: 0.3 + (0.03 - y), radius: 1 };
  if (combedBack(style)) {
    // Planes through an axis front to back below the head; in each, the angle from the front.
    // A side-swept cut's axis is turned (up to 35° over the front), so its strands run from the
    // parting across and back to the swept side, not straight back as the ridges of a cap.
    // Behind, it is combed back: turned there too, the strands ran round the back in rings.
    if (style === 'sideSwept') {
      const a = 0.6 * smoothstep(-0.06, 0.03, z);
      [x, z] = [x * Math.cos(a) + z * Math.sin(a), z * Math.cos(a) - x * Math.sin(a)];
    }
    const r = Math.hypot(x, y + 0.06);
    return { across: Math.atan2(x, y + 0.06), along: 0.13 * Math.atan2(r, z + 0.01), radius: r };
  }
  // Falling from the crown: over the top the angle from the vertical, below the head's middle
  // straight down. The axis leans back over the top (up to 26°), so the strands converge at the
  // back of the crown, not on top where the light falls: there they gathered it in a grey spot.
  const b = 0.45 * smoothstep(-0.02, 0.05, y);
  const [up, back] = [y * Math.cos(b) - (z + 0.02) * Math.sin(b), (z + 0.02) * Math.cos(b) + y * Math.sin(b)];
  const rho = Math.hypot(x, back);
  return { across: Math.atan2(x, back), along: up > 0 ? 0.1 * Math.atan2(rho, up) : 0.05 * Math.PI - up, radius: rho };
}

/** 0..1 from an integer: each lock's own height and shade. */
const hash = (i: number) => {
  const s = Math.sin(i * 127.1 + 311.7) * 43758.5453;
  return s - Math.floor(s);
};

/**
 * One layer of locks: `count` round the turn, of uneven widths (a monotonic warp of the angle,
 * periodic, so there is no seam where the angle wraps), each lock's cross-section rounded (1 on
 * its crest, 0 in the crease), its height varied by `hash`.
 */
function layer(a: number, count: number, phase: number): { bulge: number; id: number } {
  const t = (a / (2 * Math.PI)) * count + phase;
  // Slope 1 ± 0.49: never folds back, widths 0.7 … 2 of the mean.
  const u = t + (count / (2 * Math.PI)) * (0.14 * Math.sin(2 * a + phase * 3.1) + 0.07 * Math.sin(3 * a + 2.3 + phase));
  const n = Math.floor(u);
  const f = u - n;
  const id = ((n % count) + count) % count;
  // A broad crest and a rounded crease, each side a fifth of the lock: calm masses. A V-shaped
  // crease is narrower than the hair's 4 mm grid, which drew it as a jagged, stitched line.
  const round = smoothstep(0, 0.2, f) * smoothstep(1, 0.8, f);
  return { bulge: round * (0.75 + 0.25 * hash(id + phase * 1000)), id };
}

/** How much of a lock's crest a point is on (0 in a crease … 1 on the top of a high lock), and the lock. */
export function lockAt(style: Style, q: V3): { bulge: number; id: number } {
  const { across, along } = flowAt(style, q);
  // Locks wander a little along their length (straight borders look ruled; a strong wander
  // drew wavy bands like wood grain).
  const a = across + 0.025 * Math.sin(along * 30 + across * 3);
  return layer(a, 18, 0.13);
}

/**
 * Clumps: a few broad locks (seven round the turn), each rising and falling gently along its
 * length, under the finer locks. They break the hair's outline in every view, so its silhouette
 * is hair, not a smoothed helmet grooved all over.
 */
export function clumpAt(style: Style, q: V3): number {
  const { across, along } = flowAt(style, q);
  const a = across + 0.07 * Math.sin(along * 14 + across * 2);
  const { bulge, id } = layer(a, 7, 0.37);
  return bulge * (0.8 + 0.2 * Math.sin(along * 30 + id * 2.1));
}

/**
 * How much the locks show (0 … 1): not on the ponytail's tail, the quiff's front, nor where they
 * converge (a crown, a nape): narrower than the hair's grid there, their creases were jagged spokes.
 */
export function reliefAt(style: Style, q: V3): number {
  return (1 - smoothTail(style, q)) * (1 - quiffFront(style, q)) * smoothstep(0.035, 0.085, flowAt(style, q).radius);
}

/**
 * The quiff's front (0 … 0.85), combed up and back: seen from the front its locks stood end-on as
 * vertical pleats. It is left smooth there, for the strands of the texture.
 */
function quiffFront(style: Style, [x, y, z]: V3): number {
  if (style !== 'quiff') return 0;
  // Facing the front and the front of the sides (within about 75° of straight ahead, seen from the head's middle).
  return 0.85 * smoothstep(0.1, 0.4, z / Math.hypot(x, y - 0.02, z)) * smoothstep(0.04, 0.08, y);
}

/** The hair's surface with its clumps and locks: crests stand out, creases sink (scaled by `weight`). */
export function withLocks(style: Style, sdf: Sdf, weight: (q: V3) => number = () => 1, depth = 0.0018, clumps = 0.008): Sdf {
  if (!hasLocks(style)) return sdf;
  return (x, y, z) => {
    const d = sdf(x, y, z);
    if (d > 0.01 || d < -0.01) return d;
    const q: V3 = [x, y, z];
    const k = reliefAt(style, q) * weight(q);
    return k ? d - k * (depth * (lockAt(style, q).bulge - 0.55) + clumps * (clumpAt(style, q) - 0.5)) : d;
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
