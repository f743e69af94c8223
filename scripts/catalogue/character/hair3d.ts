// 3D hair as a shell around the head's distance field, cut at a hairline, plus the volumes of
// each style (a quiff, a ponytail, long hair down the back, curls, a headscarf).
import type { Person } from '../people';
import { linear, lerp3, type MeshData } from '../mesh/mesh';
import { capsule, ellipsoid, gradient, roundBox, smax, smin, smoothstep, sphere, type Sdf, type V3 } from '../mesh/sdf';
import { surfaceNets } from '../mesh/surface-nets';
import { clumpAt, curlAt, hasLocks, lockAt, reliefAt, withLocks } from './hair-locks';
import { flowUVs, HAIR_TEXTURE_MEAN } from './hair-texture';

export interface Hair {
  sdf: Sdf;
  mesh: MeshData;
}

export function hairSdf(p: Person, head: Sdf): Sdf {
  // The locks' relief fades out over the last 1.5 cm before the hairline: there the hair is
  // thin, and a crease as deep as it is notched the edge into ragged ends.
  const edge = hairline(p.hair.style);
  // Hair pulled back shows its combing in deeper locks (on a smooth mass it read as a cap). Long
  // hair's locks run slanting across the grid over the head's sides, where their creases were
  // stepped into chains: shallow there, the texture's strands carry the combing.
  const style = p.hair.style;
  const depth = style === 'ponytail' ? 0.003 : style === 'longStraight' || style === 'longWavy' ? 0.0008 : 0.0018;
  return withLocks(p.hair.style, styleSdf(p, head, edge), (q) => smoothstep(0, 0.015, edge(q[0], q[1], q[2])), depth);
}

/** The hairline as a field: positive where there is hair. */
function hairline(style: Person['hair']['style']): (x: number, y: number, z: number) => number {
  // Above a hairline that runs from the forehead down to the nape.
  const front = style === 'headscarf' ? 0.075 : style === 'curlyShort' ? 0.058 : style === 'longStraight' ? 0.056 : 0.064;
  const long = style === 'longStraight' || style === 'longWavy' || style === 'bob';
  // The hairline: continuous, so the shell has no torn edges. Short styles clear the ears and
  // come down in front of them as sideburns.
  const region = (x: number, y: number, z: number) => {
    const ax = Math.abs(x);
    const side = smoothstep(0.05, 0.062, ax);
    // Round the ear in a curve: behind it the line comes down to the nape over 6.5 cm (over
    // 1.5 cm it was a cliff, and the hair there hung as a drip in profile).
    const overEar = long ? 0 : side * smoothstep(-0.095, -0.03, z) * (1 - smoothstep(0.008, 0.03, z));
    // The sideburn tapers to a point (a band with a flat end read as a block, a lump in profile).
    const sideburn = long ? 0 : 0.8 * side * Math.max(0, 1 - Math.hypot(z - 0.038, 0.002) / 0.017);
    const back = long ? Math.max(0, -z) * 0.6 : 0;
    // Seen from the front the hairline is an arc, lower at the temples: it frames the face.
    // A side-swept fringe comes lower over the forehead towards the swept side: a diagonal edge.
    const fringe = style === 'sideSwept' ? 0.018 * smoothstep(-0.03, 0.06, x) * smoothstep(0.02, 0.07, z) : 0;
    return y - front + 6 * x * x + Math.max(0, 0.085 - z) * 0.58 - back - 0.05 * overEar + 0.03 * sideburn - fringe;
  };
  // The hairline is where the broad clumps end, each at its own length: an even line read as
  // a cut. (The fine locks' ends, reaching past it too, hung as ragged drips in profile.)
  const tips = hasLocks(style) ? 0.008 : 0;
  return (x, y, z) => {
    const r = region(x, y, z);
    if (!tips) return r;
    const near = 1 - (r * r) / (4 * tips * tips); // fades to nothing two tips' lengths away
    // Not at a short cut's temples, where the hairline runs down the locks' way: their uneven
    // ends stepped it there like stairs.
    const even = long ? 0 : smoothstep(0.04, 0.058, Math.abs(x)) * smoothstep(0.01, 0.045, z);
    return near > 0 ? r + near * tips * (1 - 0.85 * even) * (clumpAt(style, [x, y, z]) - 0.5) : r;
  };
}

function styleSdf(p: Person, head: Sdf, edge: (x: number, y: number, z: number) => number): Sdf {
  const style = p.hair.style;
  // Thicker on top than at the sides, as hair lies (it stands off the crown: a shell of even
  // thickness read as a cap); thin at the hairline, so the hair meets the forehead and temples
  // softly instead of ending in a helmet's rim.
  const long = style === 'longStraight' || style === 'longWavy' || style === 'bob';
  const crown = style === 'buzz' || style === 'headscarf' ? 0.75 : style === 'ponytail' ? 1.2 : 1.6;
  const shell =
    (t: number): Sdf =>
    (x, y, z) => {
      const r = edge(x, y, z);
      // At a short cut's temples the hair keeps some thickness to its end: thinner than the grid,
      // the skin showed through it and stepped its edge like stairs.
      const floor = long ? 0.3 : 0.3 + 0.3 * smoothstep(0.045, 0.06, Math.abs(x)) * smoothstep(0.0, 0.03, z);
      const taper = floor + (1 - floor) * smoothstep(0, 0.025, r);
      // A rounded end (blended over 9 mm): a sharper cut is stepped by the hair's 4 mm grid into a ragged edge.
      return smax(head(x, y, z) - t * (0.45 + crown * smoothstep(-0.01, 0.09, y)) * taper, -r, 0.009);
    };
  /** Locks: slim capsules from the parting sweeping over the head (fat ends stood out as tufts), smoothly merged. */
  const locks =
    (list: [V3, V3, number][]): Sdf =>
    (x, y, z) => {
      let d = 1;
      for (const [a, b, r] of list) d = smin(d, capsule(a, b, r * 0.7)(x, y, z), 0.008);
      return d;
    };
  /**
   * The style's own mass, merged into the shell and ended at the same hairline: short hair stands
   * off the head (a shell that follows the skull reads as a helmet, however it is grooved).
   */
  const withMass =
    (base: Sdf, ...parts: Sdf[]): Sdf =>
    (x, y, z) => {
      let d = base(x, y, z);
      for (const m of parts) d = smin(d, smax(m(x, y, z), -edge(x, y, z), 0.009), 0.02);
      return d;
    };
  /**
   * Volume at the sides and back, thinning to nothing towards the hairline over `fade` (a mass
   * cut off there would end in a helmet's rim): the hair stands off the skull all round.
   */
  const withBulk =
    (base: Sdf, fade: number, ...parts: Sdf[]): Sdf =>
    (x, y, z) => {
      // Short hair also thins towards the nape, where the skull curves in to the neck: a mass
      // that kept the back's fullness there ended over the neck in a ledge.
      const thin = 0.025 * (1 - smoothstep(0, fade, edge(x, y, z))) + (long ? 0 : 0.015 * smoothstep(0.01, -0.05, y));
      let d = base(x, y, z);
      for (const m of parts) d = smin(d, m(x, y, z) + thin, 0.02);
      return d;
    };
  switch (style) {
    case 'sideSwept':
    case 'quiff': {
      // A parting on one side (the quiff mirrored and higher at the front); locks sweep across
      // the forehead and back.
      const base = shell(style === 'quiff' ? 0.013 : 0.012);
      const side = style === 'quiff' ? -1 : 1;
      const lift = style === 'quiff' ? 0.002 : 0;
      const l: [V3, V3, number][] = [];
      for (let i = 0; i < 6; i++) {
        const z = 0.075 - i * 0.022;
        const up = lift * Math.max(0, 1 - i / 3);
        l.push([[-0.03 * side, 0.098 + up - i * 0.002, z], [0.066 * side, 0.06 + up * 0.5 - i * 0.004, z - 0.012], 0.0095 + up * 0.3]);
      }
      // Each lock lies on the head (its ends were left floating: a tuft at the front).
      const onHead = (q: V3): V3 => {
        let r = q;
        for (let k = 0; k < 6; k++) {
          const d = head(r[0], r[1], r[2]) - 0.006;
          const g = gradient(head, r[0], r[1], r[2]);
          r = [r[0] - g[0] * d, r[1] - g[1] * d, r[2] - g[2] * d];
        }
        return r;
      };
      const sweep = locks(l.map(([a, b, r]) => [onHead(a), onHead(b), r]));
      // Fuller over the back of the head and above the ears than the skull is. The quiff is combed
      // back: rolls across the head drew bands across its combed strands.
      const swept = withBulk(
        style === 'quiff' ? base : (x, y, z) => smin(base(x, y, z), sweep(x, y, z), 0.012),
        0.06,
        ellipsoid([0, 0.04, -0.02], [0.083, 0.082, 0.106]),
      );
      if (style === 'quiff')
        return withMass(
          swept,
          // Height on top, and the quiff: a roll that rises from the front hairline and comes forward.
          ellipsoid([0, 0.1, 0.0], [0.062, 0.03, 0.078]),
          ellipsoid([0, 0.116, 0.048], [0.054, 0.028, 0.046]),
          ellipsoid([0, 0.126, 0.074], [0.042, 0.021, 0.03]),
          capsule([-0.03, 0.112, 0.05], [0.03, 0.116, 0.07], 0.017),
        );
      return sideSwept(
        onHead,
        withMass(
          swept,
          // Height on top, more on the swept side, lifting off the parting; a soft roll over the
          // forehead towards the swept side, over the temple.
          ellipsoid([0.02, 0.104, 0.012], [0.06, 0.034, 0.08]),
          capsule([-0.017, 0.124, 0.066], [-0.013, 0.124, -0.03], 0.012, 0.01),
          capsule([-0.03, 0.118, 0.055], [0.05, 0.096, 0.076], 0.018, 0.015),
          capsule([0.05, 0.096, 0.076], [0.074, 0.05, 0.052], 0.015, 0.01),
        ),
      );
    }
    case 'curlyShort': {
      // A rounded mass of curls, standing off the top and sides more than a shell would.
      const base = withBulk(
        withMass(shell(0.013), ellipsoid([0, 0.078, 0.0], [0.084, 0.056, 0.098])),
        0.04,
        ellipsoid([0, 0.045, -0.02], [0.088, 0.08, 0.108]),
      );
      // Curls: round coils with dark gaps between them (curlAt).
      return (x, y, z) => {
        const d = base(x, y, z);
        return d > 0.008 || d < -0.008 ? d : d - 0.0045 * (curlAt([x, y, z]).bulge - 0.4);
      };
    }
    case 'ponytail': {
      // Drawn back: close to the skull at the forehead and temples, rising towards a little lift
      // at the crown and the fullness over the tie (height over the forehead read as a cap's rim).
      const base = withBulk(
        withMass(shell(0.0085), ellipsoid([0, 0.104, -0.012], [0.056, 0.03, 0.068]), ellipsoid([0, 0.08, -0.07], [0.062, 0.04, 0.04])),
        0.05,
        ellipsoid([0, 0.05, -0.03], [0.075, 0.078, 0.1]),
      );
      const tie = sphere([0, 0.04, -0.098], 0.021);
      const tail = capsule([0, 0.03, -0.112], [0, -0.14, -0.128], 0.026, 0.01);
      return (x, y, z) => smin(smin(base(x, y, z), tie(x, y, z), 0.012), tail(x, y, z), 0.015);
    }
    case 'longStraight':
    case 'longWavy':
    case 'bob': {
      // Volume at the crown and round the head, and the hair falling from the parting wider than
      // the head beside the face, down to the ends (the head's outline is the hair's, not the
      // skull's; side hair that stopped above the back's ends made a step at the chin).
      const base = withBulk(
        withMass(
          shell(0.009),
          ellipsoid([0, 0.088, -0.01], [0.078, 0.036, 0.092]),
          (x, y, z) => capsule([0.058, 0.07, 0.0], [0.09, -0.2, -0.02], 0.012, 0.017)(Math.abs(x), y, z),
          // Over the ears (their tips showed through the hair, thin there, in back views).
          (x, y, z) => ellipsoid([0.078, -0.004, -0.01], [0.016, 0.038, 0.03])(Math.abs(x), y, z),
        ),
        0.03,
        ellipsoid([0, 0.03, -0.02], [0.086, 0.09, 0.104]),
      );
      const back = roundBox([0, -0.075, -0.05], [0.092, 0.135, 0.045], 0.04);

      return (x, y, z) => {
        let d = smin(base(x, y, z), back(x, y, z), 0.03);
        // The ends: each clump stops at its own length.
        d = smax(d, -0.17 - 0.035 * clumpAt(style, [x, y, z]) - y, 0.012);
        // Keep the face and the front of the neck clear.
        return smax(d, -ellipsoid([0, -0.06, 0.06], [0.07, 0.12, 0.08])(x, y, z), 0.01);
      };
    }
    case 'headscarf': {
      // Wide enough to pass smoothly over the ears (they made lumps in the cloth).
      const round = ellipsoid([0, 0.012, -0.012], [0.1, 0.12, 0.112]);
      const wrap = (x: number, y: number, z: number) => smin(head(x, y, z) - 0.011, round(x, y, z), 0.006);
      const under = capsule([0, -0.04, -0.015], [0, -0.13, -0.02], 0.08, 0.09);
      const opening = ellipsoid([0, -0.035, 0.11], [0.066, 0.09, 0.085]);
      return (x, y, z) => smax(smin(wrap(x, y, z), under(x, y, z), 0.04), -opening(x, y, z), 0.012);
    }
    default:
      return shell(0.007);
  }
}

/** The parting's side-swept cut (parting at x -0.03, swept to +x). */
const PARTING = -0.03;

/**
 * A side-swept cut's parting and fringe: the hair lies flatter on the parting's short side, a
 * groove marks the parting, and a tapering lock falls from the sweep over the temple, past the
 * hairline. Seen from the front the outline is lopsided like a combed cut, not a cap's even arc.
 */
function sideSwept(onHead: (q: V3) => V3, mass: Sdf): Sdf {
  const tip = capsule(onHead([0.06, 0.075, 0.074]), onHead([0.082, 0.032, 0.05]), 0.009, 0.003);
  return (x, y, z) => {
    const d = smin(mass(x, y, z), tip(x, y, z), 0.01);
    const top = smoothstep(0.06, 0.1, y) * smoothstep(-0.05, 0.0, z);
    const groove = Math.exp(-(((x - PARTING) / 0.005) ** 2));
    const flat = smoothstep(PARTING, PARTING - 0.03, x);
    return d + top * (0.006 * groove + 0.004 * flat);
  };
}

export function buildHair(p: Person, head: Sdf, cell = 0.0045): Hair {
  const sdf = hairSdf(p, head);
  const base = linear(p.hair.color);
  const light = lerp3(base, [1, 1, 1], 0.22);
  const dark = lerp3(base, [0, 0, 0], 0.35);
  const crease = lerp3(base, [0, 0, 0], 0.6);
  const scarf = p.hair.style === 'headscarf';
  const locks = hasLocks(p.hair.style);
  const colorAt = (q: V3, n: V3): V3 => {
    // Locks: dark in the creases between them, each lock a little lighter or darker than the
    // next, fine streaks along the strands; a sheen where the top faces the light.
    let c = base;
    if (scarf) c = lerp3(dark, base, 0.9 + 0.1 * Math.sin(q[1] * 60 + Math.atan2(q[0], q[2] + 0.02) * 2));
    else if (p.hair.style === 'curlyShort') c = lerp3(crease, base, 0.25 + 0.75 * Math.sqrt(curlAt(q).bulge));
    else if (locks) {
      const { bulge, id } = lockAt(p.hair.style, q);
      const own = (Math.abs(Math.sin(id * 12.9898)) * 43758.5453) % 1;
      // The creases darken softly: a dark line only as wide as the crease was drawn vertex by
      // vertex on the 4 mm grid as a torn, jagged edge.
      const relief = reliefAt(p.hair.style, q);
      c = lerp3(crease, base, 1 - 0.45 * relief * (1 - bulge));
      // Shaded lock by lock only where the locks show (on the quiff's smooth front, stripes).
      c = lerp3(c, own > 0.5 ? light : dark, 0.25 * Math.abs(own - 0.5) * (0.3 + 0.7 * relief));
    }
    c = lerp3(c, light, Math.max(0, n[1]) * 0.5 * Math.max(0, n[2] + 0.3));
    const o = sdf(q[0] + n[0] * 0.01, q[1] + n[1] * 0.01, q[2] + n[2] * 0.01) / 0.01;
    const ao = Math.max(0.55, Math.min(1, 0.5 + 0.5 * o));
    return [c[0] * ao, c[1] * ao, c[2] * ao];
  };
  const bottom = p.hair.style === 'longStraight' || p.hair.style === 'headscarf' || p.hair.style === 'ponytail' ? -0.22 : -0.1;
  const mesh = surfaceNets(sdf, [-0.115, bottom, -0.16], [0.115, 0.17, 0.15], cell, colorAt);
  if (!locks) return { sdf, mesh };
  // Strands as a texture along the flow; the colours are lifted by its mean so the hair keeps its shade.
  mesh.colors = mesh.colors.map((v) => v / HAIR_TEXTURE_MEAN);
  return { sdf, mesh: flowUVs(mesh, p.hair.style) };
}
