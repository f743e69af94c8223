// How hard the light falls across a face, for the catalogue's lighting presets (issue 36,
// item 3): the lighting ratio of the face's front, as a portrait photographer measures it
// (brightest to darkest side, 2:1–3:1 flatters; 8:1 is a hard line down the nose). Lambert's
// law for the directional lights, three.js's hemisphere blend and the ambient term, luminance of
// each colour: the same light the renderer draws, without the textures.
import type { LightingPreset } from '@parla/shared/schemas/catalogue';

function luminance(hex: string): number {
  const n = parseInt(hex.replace('#', '').padEnd(6, '0').slice(0, 6), 16);
  const lin = (c: number) => (c / 255) ** 2.2;
  return 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
}

/** The light a surface with normal `n` (unit, the camera on +z) receives from the preset. */
function irradiance(p: LightingPreset, n: [number, number, number]): number {
  let e = luminance(p.ambient.color) * p.ambient.intensity;
  const up = 0.5 * n[1] + 0.5;
  e += (luminance(p.hemisphere.sky) * up + luminance(p.hemisphere.ground) * (1 - up)) * p.hemisphere.intensity;
  for (const d of p.directional) {
    const len = Math.hypot(...d.position) || 1;
    const dot = (n[0] * d.position[0] + n[1] * d.position[1] + n[2] * d.position[2]) / len;
    e += luminance(d.color) * d.intensity * Math.max(0, dot);
  }
  return e;
}

/** Brightest over darkest light on the face's front: normals 60° either side, 30° up and down. */
export function faceLightingRatio(p: LightingPreset): number {
  let lo = Infinity,
    hi = 0;
  for (let yaw = -60; yaw <= 60; yaw += 10)
    for (let pitch = -30; pitch <= 30; pitch += 10) {
      const [y, x] = [(yaw * Math.PI) / 180, (pitch * Math.PI) / 180];
      const e = irradiance(p, [Math.sin(y) * Math.cos(x), Math.sin(x), Math.cos(y) * Math.cos(x)]);
      lo = Math.min(lo, e);
      hi = Math.max(hi, e);
    }
  return hi / lo;
}
