// Fine strands on the hair: a small tileable texture of dark and light streaks, multiplied with
// the hair's vertex colours, and texture coordinates that run along the way the hair is combed
// (`flowAt`), so the streaks follow the locks like the combed lines of the 2D portraits. The
// mesh's 4 mm grid cannot carry strands; a texture can.
import type { Person } from '../people';
import type { MeshData } from '../mesh/mesh';
import { encodePng } from '../mesh/png';
import { flowAt } from './hair-locks';
import { seeded, srgb } from './textures';

const W = 128,
  H = 64;

/** The texture's mean brightness: vertex colours are divided by it, so the hair keeps its colour. */
export const HAIR_TEXTURE_MEAN = 0.86;

/**
 * Columns across the strands, rows along them: fine combed lines, sparse enough to read as
 * lines (a dense field of them read as noise), mostly dark, some light. Each line (0.45–0.8 px)
 * drifts a little and fades in and out along its length; all drifts and fades are whole periods
 * of the tile, so it repeats without a seam.
 */
export function hairTexture(): Buffer {
  const v = strands();
  let mean = 0;
  for (const t of v) mean += t / (W * H);
  const px = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    // Linear brightness round the mean; a glTF colour texture is sRGB.
    const s = srgb(Math.max(0.45, HAIR_TEXTURE_MEAN + 0.32 * (v[i]! - mean)));
    px.set([s, s, s], i * 3);
  }
  return encodePng(W, H, 3, px);
}

/**
 * The same strands as a normal map: each dark line a fine groove, each light one a ridge, so
 * the highlight breaks into streaks along the hair (on black hair, where colour cannot show them).
 * `strength` scales the relief: dark hair shows its strands only in the highlight, so deeper there.
 */
export function hairNormalTexture(strength = 1): Buffer {
  const v = strands();
  const px = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const dx = (v[y * W + ((x + 1) % W)]! - v[y * W + ((x + W - 1) % W)]!) * 0.35 * strength;
      const l = Math.hypot(dx, 1);
      px.set([Math.round(127.5 - (127.5 * dx) / l), 128, Math.round(127.5 + 127.5 / l)], (y * W + x) * 3);
    }
  return encodePng(W, H, 3, px);
}

/** The strands' relief, 0 between them, negative on dark lines and positive on light ones. */
function strands(): Float32Array {
  const rnd = seeded(41);
  const v = new Float32Array(W * H).fill(0);
  const turn = 2 * Math.PI;
  for (let n = 0; n < 80; n++) {
    const x0 = rnd() * W;
    const light = n % 4 === 0;
    const depth = (light ? 0.6 : 1) * (0.4 + 0.6 * rnd());
    const width = 0.45 + 0.35 * rnd();
    const drift = 2 * rnd(),
      phase = rnd() * turn,
      fadePhase = rnd() * turn;
    // One period of drift and of fading per tile, so it repeats without a seam.
    for (let y = 0; y < H; y++) {
      const cx = x0 + drift * Math.sin((turn * y) / H + phase);
      const along = 0.6 + 0.4 * Math.sin((turn * y) / H + fadePhase);
      for (let dx = -3; dx <= 3; dx++) {
        const x = Math.floor(cx) + dx;
        const g = Math.exp(-(((x + 0.5 - cx) / width) ** 2));
        v[y * W + ((x + W) % W)]! += (light ? 1 : -1) * depth * along * g;
      }
    }
  }
  return v;
}

/** Tiles of the texture round a whole turn of `across` and along a metre of `along`. */
const TURN = 5,
  METRE = 12;
/** The largest `along` stored (texture coordinates are 0..1). */
const ALONG = 0.6;

/** How the material repeats the texture over the coordinates from `flowUVs`. */
export const HAIR_TEXTURE_REPEAT: [number, number] = [2 * TURN, ALONG * METRE];

/**
 * Texture coordinates along the flow: u round the flow's axis, v along it. u is stored as half a
 * turn per unit, so a triangle across the angle's wrap can take u + 0.5 on its far side (its
 * vertices there are copied): it would otherwise stretch the whole texture across one triangle.
 */
export function flowUVs(m: MeshData, style: Person['hair']['style']): MeshData {
  const P = m.positions;
  const uv: number[] = [];
  for (let i = 0; i < P.length; i += 3) {
    const f = flowAt(style, [P[i]!, P[i + 1]!, P[i + 2]!]);
    uv.push((0.5 + f.across / (2 * Math.PI)) / 2, Math.min(1, Math.max(0, f.along / ALONG)));
  }
  const out: MeshData = { positions: [...P], normals: [...m.normals], colors: [...m.colors], indices: [...m.indices], uvs: uv };
  const copies = new Map<number, number>();
  for (let t = 0; t < out.indices.length; t += 3) {
    const tri = [0, 1, 2].map((k) => out.indices[t + k]!);
    const us = tri.map((i) => uv[i * 2]!);
    if (Math.max(...us) - Math.min(...us) < 0.25) continue;
    tri.forEach((i, k) => {
      if (uv[i * 2]! >= 0.25) return;
      let c = copies.get(i);
      if (c === undefined) {
        c = out.positions.length / 3;
        copies.set(i, c);
        out.positions.push(P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!);
        out.normals.push(m.normals[i * 3]!, m.normals[i * 3 + 1]!, m.normals[i * 3 + 2]!);
        out.colors.push(m.colors[i * 3]!, m.colors[i * 3 + 1]!, m.colors[i * 3 + 2]!);
        uv.push(uv[i * 2]! + 0.5, uv[i * 2 + 1]!);
      }
      out.indices[t + k] = c;
    });
  }
  return out;
}
