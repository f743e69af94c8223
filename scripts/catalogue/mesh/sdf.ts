// Signed distance functions: characters and props are modelled as smooth unions of simple
// solids, then meshed with surface nets. Distances are in metres.
export type V3 = [number, number, number];
export type Sdf = (x: number, y: number, z: number) => number;

export const sphere =
  (c: V3, r: number): Sdf =>
  (x, y, z) =>
    Math.hypot(x - c[0], y - c[1], z - c[2]) - r;

/** A good approximation of the distance to an ellipsoid (exact on the axes). */
export const ellipsoid =
  (c: V3, r: V3): Sdf =>
  (x, y, z) => {
    const px = (x - c[0]) / r[0],
      py = (y - c[1]) / r[1],
      pz = (z - c[2]) / r[2];
    const k0 = Math.hypot(px, py, pz);
    const k1 = Math.hypot(px / r[0], py / r[1], pz / r[2]);
    return k1 === 0 ? -Math.min(...r) : (k0 * (k0 - 1)) / k1;
  };

/** A capsule from a to b whose radius goes from ra to rb (a rounded cone, approximately). */
export const capsule = (a: V3, b: V3, ra: number, rb = ra): Sdf => {
  const bax = b[0] - a[0],
    bay = b[1] - a[1],
    baz = b[2] - a[2];
  const len2 = bax * bax + bay * bay + baz * baz;
  return (x, y, z) => {
    const pax = x - a[0],
      pay = y - a[1],
      paz = z - a[2];
    const h = Math.max(0, Math.min(1, (pax * bax + pay * bay + paz * baz) / len2));
    return Math.hypot(pax - bax * h, pay - bay * h, paz - baz * h) - (ra + (rb - ra) * h);
  };
};

export const roundBox =
  (c: V3, half: V3, r: number): Sdf =>
  (x, y, z) => {
    const qx = Math.abs(x - c[0]) - half[0] + r,
      qy = Math.abs(y - c[1]) - half[1] + r,
      qz = Math.abs(z - c[2]) - half[2] + r;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0)) + Math.min(Math.max(qx, qy, qz), 0) - r;
  };

/** 0 below a, 1 above b, a smooth S between. */
export function smoothstep(a: number, b: number, x: number): number {
  const t = Math.max(0, Math.min(1, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
}

export function smin(a: number, b: number, k: number): number {
  if (k <= 0) return Math.min(a, b);
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.min(a, b) - h * h * k * 0.25;
}

export function smax(a: number, b: number, k: number): number {
  return -smin(-a, -b, k);
}

export const union =
  (k: number, ...parts: Sdf[]): Sdf =>
  (x, y, z) => {
    let d = parts[0]!(x, y, z);
    for (let i = 1; i < parts.length; i++) d = smin(d, parts[i]!(x, y, z), k);
    return d;
  };

export const subtract =
  (k: number, base: Sdf, cut: Sdf): Sdf =>
  (x, y, z) =>
    smax(base(x, y, z), -cut(x, y, z), k);

export const intersect =
  (k: number, a: Sdf, b: Sdf): Sdf =>
  (x, y, z) =>
    smax(a(x, y, z), b(x, y, z), k);

export const offset =
  (s: Sdf, by: number): Sdf =>
  (x, y, z) =>
    s(x, y, z) - by;

/** Rotates the argument (not the shape) about Y by -angle: the shape turns by +angle. */
export const rotateY = (s: Sdf, angle: number, about: V3 = [0, 0, 0]): Sdf => {
  const c = Math.cos(-angle),
    sn = Math.sin(-angle);
  return (x, y, z) => {
    const dx = x - about[0],
      dz = z - about[2];
    return s(about[0] + dx * c + dz * sn, y, about[2] - dx * sn + dz * c);
  };
};

export const rotateX = (s: Sdf, angle: number, about: V3 = [0, 0, 0]): Sdf => {
  const c = Math.cos(-angle),
    sn = Math.sin(-angle);
  return (x, y, z) => {
    const dy = y - about[1],
      dz = z - about[2];
    return s(x, about[1] + dy * c - dz * sn, about[2] + dy * sn + dz * c);
  };
};

export const rotateZ = (s: Sdf, angle: number, about: V3 = [0, 0, 0]): Sdf => {
  const c = Math.cos(-angle),
    sn = Math.sin(-angle);
  return (x, y, z) => {
    const dx = x - about[0],
      dy = y - about[1];
    return s(about[0] + dx * c - dy * sn, about[1] + dx * sn + dy * c, z);
  };
};

export const mirrorXSdf =
  (s: Sdf): Sdf =>
  (x, y, z) =>
    s(Math.abs(x), y, z);

export function gradient(s: Sdf, x: number, y: number, z: number, e = 1e-4): V3 {
  const gx = s(x + e, y, z) - s(x - e, y, z);
  const gy = s(x, y + e, z) - s(x, y - e, z);
  const gz = s(x, y, z + e) - s(x, y, z - e);
  const l = Math.hypot(gx, gy, gz) || 1;
  return [gx / l, gy / l, gz / l];
}

/** Marches from `from` along `dir` until the surface; null when it is not met within maxDist. */
export function raycast(s: Sdf, from: V3, dir: V3, maxDist = 1): V3 | null {
  let t = 0;
  for (let i = 0; i < 200 && t < maxDist; i++) {
    const p: V3 = [from[0] + dir[0] * t, from[1] + dir[1] * t, from[2] + dir[2] * t];
    const d = s(p[0], p[1], p[2]);
    if (Math.abs(d) < 1e-5) return p;
    t += Math.max(d * 0.8, 1e-5);
  }
  return null;
}
