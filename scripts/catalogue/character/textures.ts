// Small procedural textures baked into every character's GLB, multiplied with the vertex
// colours (so they only add detail): skin (mottled tone, faint pores), cloth (a weave) and
// brows (hair-like strokes, with the gaps cut out by alpha). All tile; all seeded.
import { encodePng } from '../mesh/png';

/** Seeded 0..1 generator (Park–Miller). */
export function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
}

/** Tileable value noise on a size × size grid with `cells` lattice cells across. */
function noise(size: number, cells: number, seed: number): Float32Array {
  const rnd = seeded(seed);
  const lattice = Array.from({ length: cells * cells }, rnd);
  const at = (i: number, j: number) => lattice[((j + cells) % cells) * cells + ((i + cells) % cells)]!;
  const out = new Float32Array(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const fx = (x / size) * cells,
        fy = (y / size) * cells;
      const i = Math.floor(fx),
        j = Math.floor(fy);
      const u = fx - i,
        v = fy - j;
      const su = u * u * (3 - 2 * u),
        sv = v * v * (3 - 2 * v);
      out[y * size + x] = (at(i, j) * (1 - su) + at(i + 1, j) * su) * (1 - sv) + (at(i, j + 1) * (1 - su) + at(i + 1, j + 1) * su) * sv;
    }
  return out;
}

/** Linear 0..1 → sRGB byte (glTF colour textures are sRGB). */
export const srgb = (v: number) =>
  Math.round(255 * Math.min(1, Math.max(0, v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055)));

/**
 * Skin: faint, broad variations of tone, finer mottling and pores; mean about 0.93. Kept calm
 * (a few per cent): stronger blotches read as smudges on the face at portrait sizes.
 */
export function skinTexture(): Buffer {
  const S = 64;
  const big = noise(S, 4, 11),
    mid = noise(S, 8, 12),
    fine = noise(S, 32, 13),
    warm = noise(S, 4, 14);
  const px = new Uint8Array(S * S * 3);
  for (let i = 0; i < S * S; i++) {
    const v = 0.93 + 0.02 * (big[i]! - 0.5) + 0.025 * (mid[i]! - 0.5) + 0.03 * (fine[i]! - 0.5);
    const w = 0.02 * (warm[i]! - 0.5);
    px.set([srgb(v + w), srgb(v - w * 0.4), srgb(v - w)], i * 3);
  }
  return encodePng(S, S, 3, px);
}

/** Cloth: a plain weave, eight threads across the tile, each thread a little uneven. */
export function clothTexture(): Buffer {
  const S = 32,
    T = S / 8;
  const uneven = noise(S, 8, 21);
  const px = new Uint8Array(S * S * 3);
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++) {
      const over = (Math.floor(x / T) + Math.floor(y / T)) % 2 === 0;
      // Across a thread: bright in the middle, darker at its sides (a round yarn).
      const across = over ? (y % T) + 0.5 : (x % T) + 0.5;
      const round = Math.sin((Math.PI * across) / T);
      const v = 0.86 + 0.1 * round + 0.04 * (uneven[y * S + x]! - 0.5);
      px.set([srgb(v), srgb(v), srgb(v)], (y * S + x) * 3);
    }
  return encodePng(S, S, 3, px);
}

/**
 * Brows: u along the brow (0 inner end … 1 outer), v across (0 lower edge … 1 upper). Hairs
 * grow from the lower edge, slanting outwards and, past the arch, downwards; alpha keeps only them.
 */
export function browTexture(): Buffer {
  const W = 128,
    H = 32;
  const rnd = seeded(31);
  const alpha = new Float32Array(W * H);
  const shade = new Float32Array(W * H).fill(1);
  for (let n = 0; n < 320; n++) {
    const u0 = rnd();
    const v0 = rnd() * 0.5;
    const len = 0.45 + rnd() * 0.5;
    const slant = u0 < 0.15 ? 0.02 : 0.1 + 0.1 * u0; // inner hairs stand up, outer ones lie along
    const tone = 0.75 + rnd() * 0.3;
    for (let k = 0; k <= 24; k++) {
      const s = k / 24;
      const u = u0 + slant * s * len * 2,
        v = v0 + s * len;
      const x = Math.round(u * (W - 1)),
        y = Math.round((1 - Math.min(1, v)) * (H - 1));
      if (x < 0 || x >= W || v > 1) continue;
      for (const xx of [x, Math.min(W - 1, x + 1)]) {
        alpha[y * W + xx] = 1;
        shade[y * W + xx] = Math.min(shade[y * W + xx]!, tone);
      }
    }
  }
  // The middle of the brow is always solid (so it never thins out at a distance), wider at the
  // inner end (a crisp, full head to the brow); its edges are hairs.
  const px = new Uint8Array(W * H * 4);
  for (let i = 0; i < W * H; i++) {
    const v = 1 - Math.floor(i / W) / (H - 1);
    const u = (i % W) / (W - 1);
    const solid = Math.abs(v - 0.5) < 0.33 - 0.1 * u;
    px.set([srgb(shade[i]!), srgb(shade[i]!), srgb(shade[i]!), alpha[i]! > 0 || solid ? 255 : 0], i * 4);
  }
  return encodePng(W, H, 4, px);
}

/** Cylindrical texture coordinates about the vertical axis through (cx, cz): u round, v up. */
export function wrapUVs(positions: number[], cx: number, cz: number, y0: number, height: number): number[] {
  const uvs: number[] = [];
  for (let i = 0; i < positions.length; i += 3) {
    const u = 0.5 + Math.atan2(positions[i]! - cx, positions[i + 2]! - cz) / (2 * Math.PI);
    uvs.push(u, Math.max(0, Math.min(1, 1 - (positions[i + 1]! - y0) / height)));
  }
  return uvs;
}
