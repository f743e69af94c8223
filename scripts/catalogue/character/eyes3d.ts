// The 3D eyes: one eyeball mesh (sclera, iris with fibres and a dark limbal ring, pupil, a
// slightly domed cornea) centred on its own origin so the player can turn it in the socket
// (saccades, looking at the user), and a catch-light that stays put while the eye turns.
// Both live under the Head; the lids (in the Face mesh) close over them.
import type { Person } from '../people';
import { linear, lerp3, merge, type MeshData } from '../mesh/mesh';
import type { V3 } from '../mesh/sdf';
import { awayFrom, grid, orient } from './face-parts';

/** A repeatable pseudo-random value in 0..1 for an integer. */
const hash = (i: number) => {
  const s = Math.sin(i * 127.1 + 311.7) * 43758.5453;
  return s - Math.floor(s);
};

/** The eyeball at the origin, looking down +Z, of radius r. */
export function eyeball(p: Person, r: number): MeshData {
  const iris = linear(p.iris);
  const white = linear('#efe9e2');
  const pink = linear('#e6b3a8');
  const COLS = 41;
  // The pole looks forward, so pupil and iris are rings of the grid: round edges. The iris is
  // large (to 0.6 rad, a little over half the eye's radius across), as in the illustrated
  // portraits: a smaller one read as a bead in the opening at portrait sizes.
  const thetas = [0, 0.08, 0.15, 0.21, 0.23, 0.29, 0.35, 0.42, 0.49, 0.55, 0.6, 0.64, 0.7, 0.8, 0.95, 1.2, 1.5, 1.9, 2.4, 2.9, Math.PI];
  const colorAt = (t: number, j: number): V3 => {
    if (t <= 0.21) return [0.004, 0.003, 0.003];
    if (t <= 0.6) {
      // Fibres: each spoke of the iris a little lighter or darker; lighter near the pupil.
      const k = (t - 0.23) / 0.37;
      const fibre = 0.75 + 0.5 * hash(j);
      const bright: V3 = [Math.min(1, iris[0] * 1.9 + 0.05), Math.min(1, iris[1] * 1.9 + 0.05), Math.min(1, iris[2] * 1.9 + 0.05)];
      const c = lerp3(bright, lerp3(iris, [0, 0, 0], 0.35), Math.pow(Math.max(0, k), 1.5));
      return [c[0] * fibre, c[1] * fibre, c[2] * fibre];
    }
    // A dark limbal ring: the iris's edge reads crisply against the white.
    if (t <= 0.64) return lerp3(iris, [0, 0, 0], 0.85);
    return lerp3(white, pink, Math.max(0, Math.min(1, (t - 1.0) / 1.0)));
  };
  // The cornea bulges a little over the iris (stays under the closed lid, which is ≥ 1.02 r).
  const radius = (t: number) => r * (1 + 0.018 * Math.max(0, Math.cos((Math.min(t, 0.7) / 0.7) * (Math.PI / 2))));
  const m = grid(thetas.length, COLS, (i, j) => {
    const t = thetas[i]!;
    const az = (j / (COLS - 1)) * Math.PI * 2;
    const d: V3 = [Math.cos(az) * Math.sin(t), Math.sin(az) * Math.sin(t), Math.cos(t)];
    return { p: [d[0] * radius(t), d[1] * radius(t), d[2] * radius(t)], color: colorAt(t, j % (COLS - 1)) };
  });
  return orient(m, awayFrom([0, 0, 0]));
}

/**
 * The catch-lights, in head space: a small bright disc on each cornea towards the key light
 * (above, to the character's left). They do not turn with the eyes, as a reflection would not.
 */
export function catchLights(eyes: [V3, V3], r: number): MeshData {
  const dir: V3 = [0.22, 0.3, 0.93];
  const l = Math.hypot(...dir);
  const n: V3 = [dir[0] / l, dir[1] / l, dir[2] / l];
  const discs = eyes.map((c) => {
    const at: V3 = [c[0] + n[0] * r * 1.03, c[1] + n[1] * r * 1.03, c[2] + n[2] * r * 1.03];
    // Two axes across the disc.
    const u: V3 = [n[2], 0, -n[0]];
    const ul = Math.hypot(...u);
    const a: V3 = [u[0] / ul, u[1] / ul, u[2] / ul];
    const b: V3 = [n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]];
    const size = r * 0.15;
    const disc = grid(2, 13, (row, j) => {
      const az = (j / 12) * Math.PI * 2;
      const k = row === 0 ? 0 : size;
      return {
        p: [
          at[0] + (a[0] * Math.cos(az) + b[0] * Math.sin(az)) * k,
          at[1] + (a[1] * Math.cos(az) + b[1] * Math.sin(az)) * k,
          at[2] + (a[2] * Math.cos(az) + b[2] * Math.sin(az)) * k,
        ],
        color: [1, 1, 1],
      };
    });
    return orient(disc, () => n);
  });
  return merge(...discs);
}
