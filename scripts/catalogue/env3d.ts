// The two 3D environments for full-body avatars, modelled from boxes, cylinders and a few
// distance-field props (foliage, cushions), with vertex colours and one material.
import type { EnvironmentStaging } from '@parla/shared/schemas/catalogue';
import { GlbBuilder } from './mesh/glb';
import { computeNormals, linear, lerp3, merge, type MeshData } from './mesh/mesh';
import { ellipsoid, roundBox, smin, type Sdf, type V3 } from './mesh/sdf';
import { simplifyMesh } from './mesh/simplify';
import { surfaceNets } from './mesh/surface-nets';
import { rng } from './portrait/paths';

function box(min: V3, max: V3, color: string | V3, shadeTop = 1): MeshData {
  const c = typeof color === 'string' ? linear(color) : color;
  const m: MeshData = { positions: [], normals: [], colors: [], indices: [] };
  const faces: [V3, V3, V3, V3, V3][] = [
    [
      [1, 0, 0],
      [max[0], min[1], max[2]],
      [max[0], min[1], min[2]],
      [max[0], max[1], min[2]],
      [max[0], max[1], max[2]],
    ],
    [
      [-1, 0, 0],
      [min[0], min[1], min[2]],
      [min[0], min[1], max[2]],
      [min[0], max[1], max[2]],
      [min[0], max[1], min[2]],
    ],
    [
      [0, 1, 0],
      [min[0], max[1], max[2]],
      [max[0], max[1], max[2]],
      [max[0], max[1], min[2]],
      [min[0], max[1], min[2]],
    ],
    [
      [0, -1, 0],
      [min[0], min[1], min[2]],
      [max[0], min[1], min[2]],
      [max[0], min[1], max[2]],
      [min[0], min[1], max[2]],
    ],
    [
      [0, 0, 1],
      [min[0], min[1], max[2]],
      [max[0], min[1], max[2]],
      [max[0], max[1], max[2]],
      [min[0], max[1], max[2]],
    ],
    [
      [0, 0, -1],
      [max[0], min[1], min[2]],
      [min[0], min[1], min[2]],
      [min[0], max[1], min[2]],
      [max[0], max[1], min[2]],
    ],
  ];
  for (const [n, ...corners] of faces) {
    const base = m.positions.length / 3;
    const k = n[1] > 0 ? shadeTop : n[1] < 0 ? 0.6 : 0.85;
    for (const p of corners) {
      m.positions.push(...p);
      m.normals.push(...n);
      m.colors.push(c[0] * k, c[1] * k, c[2] * k);
    }
    m.indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return m;
}

function cylinder(centre: V3, radius: number, height: number, color: string, segments = 20): MeshData {
  const c = linear(color);
  const m: MeshData = { positions: [], normals: [], colors: [], indices: [] };
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * Math.PI * 2;
    const x = Math.cos(a),
      z = Math.sin(a);
    m.positions.push(
      centre[0] + x * radius,
      centre[1],
      centre[2] + z * radius,
      centre[0] + x * radius,
      centre[1] + height,
      centre[2] + z * radius,
    );
    m.normals.push(x, 0, z, x, 0, z);
    m.colors.push(...c, ...c);
  }
  for (let i = 0; i < segments; i++) {
    const a = i * 2;
    m.indices.push(a, a + 1, a + 2, a + 1, a + 3, a + 2);
  }
  const top = m.positions.length / 3;
  m.positions.push(centre[0], centre[1] + height, centre[2]);
  m.normals.push(0, 1, 0);
  m.colors.push(...c);
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * Math.PI * 2;
    m.positions.push(centre[0] + Math.cos(a) * radius, centre[1] + height, centre[2] + Math.sin(a) * radius);
    m.normals.push(0, 1, 0);
    m.colors.push(...c);
  }
  for (let i = 0; i < segments; i++) m.indices.push(top, top + 2 + i, top + 1 + i);
  return m;
}

/** A flat ground grid with colours varying across it. */
function ground(x0: number, x1: number, z0: number, z1: number, n: number, color: (x: number, z: number) => V3): MeshData {
  const m: MeshData = { positions: [], normals: [], colors: [], indices: [] };
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) {
      const x = x0 + ((x1 - x0) * i) / n,
        z = z0 + ((z1 - z0) * j) / n;
      m.positions.push(x, 0, z);
      m.normals.push(0, 1, 0);
      m.colors.push(...color(x, z));
    }
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      m.indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  return m;
}

function blob(sdf: Sdf, min: V3, max: V3, cell: number, color: (p: V3, n: V3) => V3): MeshData {
  return surfaceNets(sdf, min, max, cell, color);
}

function finish(name: string, parts: MeshData[]): Buffer {
  const g = new GlbBuilder();
  const all = simplifyMesh(merge(...parts), 0.002);
  const mesh = g.mesh(name, [{ data: all, material: { name: 'Environment', roughness: 0.85 } }]);
  g.root(g.node({ name, mesh }));
  return g.toBuffer();
}

export interface EnvironmentScene {
  id: string;
  name: string;
  staging: EnvironmentStaging;
  build: () => Buffer;
}

function lounge(): Buffer {
  const parts: MeshData[] = [];
  // Wooden floor planks.
  for (let i = 0; i < 24; i++) {
    const x = -6 + i * 0.5;
    parts.push(box([x, -0.05, -5], [x + 0.49, 0, 5], lerp3(linear('#b08a66'), linear('#8c6a4c'), ((i * 37) % 5) / 5)));
  }
  parts.push(box([-1.8, 0, -0.6], [1.8, 0.012, 1.8], '#c8b9a6'));
  // Back wall with three tall windows; a side wall.
  parts.push(box([-6, 0, -3.2], [6, 3.4, -3], '#ebe6de'));
  for (const x of [-3.4, -0.9, 1.6]) {
    parts.push(box([x, 0.5, -3.02], [x + 1.8, 3.0, -2.98], '#dfeefa', 1));
    parts.push(box([x + 0.87, 0.5, -2.98], [x + 0.93, 3.0, -2.95], '#f6f6f6'));
    parts.push(box([x - 0.05, 0.45, -2.98], [x + 1.85, 0.5, -2.9], '#f6f6f6'));
  }
  parts.push(box([-4.2, 0, -3], [-4.0, 3.4, 4], '#e4ded4'));
  parts.push(box([4.0, 0, -3], [4.2, 3.4, 4], '#e4ded4'));
  // A sofa of cushions, a low table, plants, a shelf with books.
  const sofa: Sdf = (x, y, z) =>
    smin(
      smin(
        roundBox([-2.6, 0.25, -2.2], [1.2, 0.22, 0.42], 0.08)(x, y, z),
        roundBox([-2.6, 0.62, -2.52], [1.2, 0.3, 0.12], 0.08)(x, y, z),
        0.05,
      ),
      roundBox([-2.6, 0.5, -2.05], [1.1, 0.06, 0.3], 0.06)(x, y, z),
      0.04,
    );
  parts.push(blob(sofa, [-4, 0, -2.8], [-1.2, 1, -1.6], 0.045, () => linear('#5d7f8f')));
  parts.push(
    box([1.6, 0.4, -1.4], [2.8, 0.45, -0.8], '#7a5a42'),
    cylinder([1.7, 0, -1.3], 0.03, 0.4, '#4a3a2e'),
    cylinder([2.7, 0, -1.3], 0.03, 0.4, '#4a3a2e'),
    cylinder([1.7, 0, -0.9], 0.03, 0.4, '#4a3a2e'),
    cylinder([2.7, 0, -0.9], 0.03, 0.4, '#4a3a2e'),
  );
  const r = rng(3);
  for (const [px, pz] of [
    [3.4, -2.4],
    [-3.6, 0.8],
  ] as const) {
    parts.push(cylinder([px, 0, pz], 0.22, 0.5, '#d9d2c5'));
    const leaves: Sdf = (x, y, z) => {
      let d = 1;
      for (let i = 0; i < 7; i++) {
        const a = i * 0.9;
        d = smin(d, ellipsoid([px + Math.cos(a) * 0.22, 0.9 + (i % 3) * 0.25, pz + Math.sin(a) * 0.22], [0.22, 0.3, 0.22])(x, y, z), 0.1);
      }
      return d;
    };
    parts.push(
      blob(leaves, [px - 0.6, 0.4, pz - 0.6], [px + 0.6, 1.7, pz + 0.6], 0.05, (p) =>
        lerp3(linear('#3f7a43'), linear('#6aa35a'), Math.max(0, Math.min(1, (p[1] - 0.5) / 1.2 + r() * 0.1))),
      ),
    );
  }
  parts.push(box([2.2, 0, -3], [3.8, 2.0, -2.7], '#8a6a50'));
  for (let s = 0; s < 3; s++) {
    parts.push(box([2.25, 0.3 + s * 0.6, -2.98], [3.75, 0.34 + s * 0.6, -2.72], '#6e5240'));
    let x = 2.3;
    while (x < 3.6) {
      const w = 0.04 + r() * 0.05;
      parts.push(
        box(
          [x, 0.34 + s * 0.6, -2.95],
          [x + w, 0.34 + s * 0.6 + 0.18 + r() * 0.1, -2.76],
          ['#8c2f2a', '#2f4f6f', '#c9a54a', '#3f6a45', '#e0d8c8'][Math.floor(r() * 5)]!,
        ),
      );
      x += w + 0.01;
    }
  }
  return finish('Lounge', parts);
}

function garden(): Buffer {
  const parts: MeshData[] = [];
  const r = rng(17);
  // Grass in tiles of slightly different greens; a stone path; hedges; trees; a bench.
  parts.push(
    ground(-8, 8, -12, 6, 32, (x, z) =>
      lerp3(linear('#5f9a4a'), linear('#4c8340'), 0.5 + 0.5 * Math.sin(x * 1.7 + Math.sin(z * 1.3) * 2) * Math.cos(z * 1.1)),
    ),
  );
  for (let j = -8; j < 5; j++) {
    const w = 0.5 + r() * 0.15;
    parts.push(box([-w, 0, j + 0.05], [w, 0.02, j + 0.9], lerp3(linear('#c9c2b4'), linear('#a9a295'), r())));
  }
  const hedge: Sdf = (x, y, z) =>
    Math.min(roundBox([-4.2, 0.5, -5], [2.6, 0.5, 0.45], 0.3)(x, y, z), roundBox([4.2, 0.5, -5], [2.6, 0.5, 0.45], 0.3)(x, y, z));
  parts.push(blob(hedge, [-7.2, -0.05, -5.6], [7.2, 1.1, -4.4], 0.1, () => lerp3(linear('#35673a'), linear('#2d5a31'), r())));
  for (const [tx, tz, s] of [
    [-4.5, -7, 1.2],
    [5, -8, 1.4],
    [-6.5, -2.5, 1],
    [6.2, -3, 1.1],
    [-2.8, -9, 1.3],
    [3, -10, 1.2],
  ] as const) {
    parts.push(cylinder([tx, 0, tz], 0.12 * s, 1.6 * s, '#6b4f3a', 12));
    const crown: Sdf = (x, y, z) => {
      let d = 1;
      for (let i = 0; i < 6; i++) {
        const a = i * 1.1;
        d = smin(
          d,
          ellipsoid([tx + Math.cos(a) * 0.5 * s, (1.9 + (i % 2) * 0.5) * s, tz + Math.sin(a) * 0.5 * s], [0.8 * s, 0.7 * s, 0.8 * s])(
            x,
            y,
            z,
          ),
          0.3,
        );
      }
      return d;
    };
    parts.push(
      blob(crown, [tx - 2 * s, 0.8 * s, tz - 2 * s], [tx + 2 * s, 3.4 * s, tz + 2 * s], 0.15, (p, n) =>
        lerp3(linear('#3c7a3a'), linear('#7ab65a'), Math.max(0, Math.min(1, 0.4 + n[1] * 0.4 + (p[1] - 2) * 0.1))),
      ),
    );
  }
  parts.push(box([1.6, 0.42, -2.2], [3.0, 0.47, -1.8], '#a0714c'), box([1.6, 0.47, -2.22], [3.0, 0.85, -2.16], '#a0714c'));
  for (const x of [1.7, 2.9]) parts.push(box([x - 0.03, 0, -2.2], [x + 0.03, 0.42, -1.82], '#3b3b3f'));
  for (const x of [-1.6, 1.3]) {
    parts.push(cylinder([x, 0, -3.6], 0.04, 2.4, '#2f3136', 10), box([x - 0.12, 2.35, -3.72], [x + 0.12, 2.55, -3.48], '#fff3c8'));
  }
  for (let i = 0; i < 36; i++) {
    const x = (r() - 0.5) * 12,
      z = -4 + (r() - 0.5) * 6;
    if (Math.abs(x) < 0.9) continue;
    parts.push(box([x, 0, z], [x + 0.06, 0.08, z + 0.06], ['#f2d14b', '#e96c8a', '#ffffff', '#b78cf0'][i % 4]!));
  }
  const all = parts.map((m) => {
    if (m.normals.length === 0) computeNormals(m);
    return m;
  });
  return finish('Garden', all);
}

export const ENVIRONMENT_SCENES: EnvironmentScene[] = [
  {
    id: 'env-lounge',
    name: 'Office lounge',
    build: lounge,
    staging: {
      spawn: { position: [0, 0, 0], rotationY: 0 },
      camera: { position: [0, 1.35, 3.4], target: [0, 1.0, 0], fov: 38 },
      sky: '#e8e4dc',
      lighting: {
        ambient: { color: '#fff8ee', intensity: 0.35 },
        hemisphere: { sky: '#f3f0ea', ground: '#8c6a4c', intensity: 0.9 },
        directional: [
          { color: '#fff1dc', intensity: 2.2, position: [2.5, 4, 3] },
          { color: '#dbe8ff', intensity: 0.6, position: [-3, 2.5, 2] },
        ],
        exposure: 1.0,
      },
    },
  },
  {
    id: 'env-garden',
    name: 'Garden terrace',
    build: garden,
    staging: {
      spawn: { position: [0, 0, 0], rotationY: 0 },
      camera: { position: [0, 1.4, 3.6], target: [0, 1.0, 0], fov: 38 },
      sky: '#a9cbe8',
      lighting: {
        // The sun high and behind the camera, a sky fill: soft on the face (3.9:1, was 5.1:1).
        ambient: { color: '#ffffff', intensity: 0.4 },
        hemisphere: { sky: '#cfe3ff', ground: '#4c7a3a', intensity: 1.0 },
        directional: [
          { color: '#fff3dd', intensity: 2.4, position: [2, 5, 3.5] },
          { color: '#e4ecff', intensity: 0.9, position: [-3, 2, 2] },
        ],
        exposure: 1.0,
      },
    },
  },
];
