// The face's skin colour at a point: the skin tone with warmer cheeks, nose, ears and chin, a
// cooler shade under the eyes, a hairline that fades into the hair (short hairs, not a drawn
// edge), stubble or a short beard, and cheap ambient occlusion from the head's distance field.
// Baked into vertex colours; the skin texture multiplies them with pores and mottling.
import type { Person } from '../people';
import { linear, lerp3 } from '../mesh/mesh';
import { smoothstep, type Sdf, type V3 } from '../mesh/sdf';

/** 0 … 1: how far into the beard a point of the face is (jaw, chin and upper lip). */
export function beardWeight(q: V3): number {
  const ax = Math.abs(q[0]),
    y = q[1],
    z = q[2];
  // One shape with one edge (a moustache and a jaw band apart read as smudges): over the upper
  // lip, down round the corners of the mouth, then the cheek line rising to the sideburn. Its
  // edges are soft over a few millimetres only, and it stops under the jaw (a clean line, as
  // the portraits draw it).
  const corner = smoothstep(0.027, 0.037, ax);
  const top = ax < 0.037 ? -0.035 - 0.015 * corner : -0.05 + (ax - 0.037) * 0.75;
  const under = -0.106 + Math.max(0, ax - 0.015) * 1.3;
  return smoothstep(0.0025, -0.0035, y - top) * smoothstep(-0.004, 0.002, y - under) * smoothstep(-0.02, -0.012, z);
}

export function faceColor(p: Person, sdf: Sdf, hair?: Sdf): (q: V3, n: V3) => V3 {
  const skin = linear(p.skin);
  const blush = lerp3(skin, linear('#d0605a'), 0.28);
  const cool = lerp3(skin, linear('#6a5470'), 0.18);
  const hairTone = linear(p.hair.color);
  const fringe = p.hair.style !== 'headscarf' && hair ? hair : null;
  const beard = p.extras.beard;
  // A full beard nearly the brows' colour, evenly (a half-and-half mix read as a brown smudge).
  const beardTone =
    beard === 'full' ? lerp3(linear(p.brow.color), skin, 0.2) : lerp3(lerp3(linear(p.brow.color), [0.22, 0.24, 0.27], 0.4), skin, 0.45);
  return (q, n) => {
    let c = skin;
    const near = (cx: number, cy: number, cz: number, r: number) =>
      Math.max(0, 1 - Math.hypot(Math.abs(q[0]) - cx, q[1] - cy, q[2] - cz) / r);
    c = lerp3(c, blush, 0.55 * near(0.042, -0.032, 0.07, 0.03) * (p.feminine ? 1 : 0.6));
    c = lerp3(c, blush, 0.3 * near(0.0, -0.028, 0.105, 0.014));
    c = lerp3(c, blush, 0.2 * near(0.0, -0.085, 0.078, 0.02));
    c = lerp3(c, lerp3(skin, linear('#c0604f'), 0.3), 0.6 * near(0.076, -0.008, -0.006, 0.03));
    c = lerp3(c, cool, 0.3 * near(0.032, -0.02, 0.08, 0.012));
    c = lerp3(c, lerp3(skin, [1, 1, 1], 0.12), 0.5 * near(0, 0.055, 0.08, 0.04));
    // Nostrils.
    c = lerp3(c, lerp3(skin, [0, 0, 0], 0.7), Math.min(1, 1.6 * near(0.0058 * p.face.noseWidth, -0.0325, 0.09, 0.004)));
    // The hairline: the skin takes the hair's tone over the last few millimetres before the hair.
    if (fringe) {
      const d = fringe(q[0], q[1], q[2]);
      c = lerp3(c, lerp3(hairTone, skin, 0.3), 0.55 * (1 - smoothstep(-0.0015, 0.008, d)));
    }
    if (beard) c = lerp3(c, beardTone, (beard === 'full' ? 0.82 : 0.32) * beardWeight(q));
    // Cheap ambient occlusion: how close the surface comes to itself along the normal.
    const o1 = sdf(q[0] + n[0] * 0.003, q[1] + n[1] * 0.003, q[2] + n[2] * 0.003) / 0.003;
    const o2 = sdf(q[0] + n[0] * 0.009, q[1] + n[1] * 0.009, q[2] + n[2] * 0.009) / 0.009;
    const ao = Math.max(0.74, Math.min(1, 0.6 + 0.18 * Math.min(1, o1) + 0.22 * Math.min(1, o2)));
    // The underside of the jaw in soft shade, matching the top of the neck (body3d.ts).
    const under = 1 - 0.12 * smoothstep(-0.1, -0.6, n[1]) * smoothstep(-0.07, -0.09, q[1]);
    return [c[0] * ao * under, c[1] * ao * under, c[2] * ao * under];
  };
}
