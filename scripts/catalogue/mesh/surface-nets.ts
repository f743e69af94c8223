// Naive surface nets: one vertex per cell the surface crosses (the mean of its edge crossings,
// then pulled onto the surface), one quad per crossed grid edge. Simpler than marching cubes,
// with no tables, and it gives evenly sized faces that shade smoothly.
import type { MeshData } from './mesh';
import { gradient, type Sdf, type V3 } from './sdf';

export function surfaceNets(sdf: Sdf, min: V3, max: V3, cell: number, colorAt: (p: V3, n: V3) => V3): MeshData {
  const nx = Math.ceil((max[0] - min[0]) / cell) + 1;
  const ny = Math.ceil((max[1] - min[1]) / cell) + 1;
  const nz = Math.ceil((max[2] - min[2]) / cell) + 1;
  const field = new Float32Array(nx * ny * nz);
  const at = (i: number, j: number, k: number) => i + nx * (j + ny * k);
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) field[at(i, j, k)] = sdf(min[0] + i * cell, min[1] + j * cell, min[2] + k * cell);

  const cellVertex = new Int32Array((nx - 1) * (ny - 1) * (nz - 1)).fill(-1);
  const cAt = (i: number, j: number, k: number) => i + (nx - 1) * (j + (ny - 1) * k);
  const mesh: MeshData = { positions: [], normals: [], colors: [], indices: [] };
  const corners: V3[] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
  ];
  const edges: [number, number][] = [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ];
  for (let k = 0; k < nz - 1; k++)
    for (let j = 0; j < ny - 1; j++)
      for (let i = 0; i < nx - 1; i++) {
        const v = corners.map(([a, b, c]) => field[at(i + a, j + b, k + c)]!);
        let inside = 0;
        for (const d of v) if (d < 0) inside++;
        if (inside === 0 || inside === 8) continue;
        let sx = 0,
          sy = 0,
          sz = 0,
          n = 0;
        for (const [a, b] of edges) {
          const da = v[a]!,
            db = v[b]!;
          if (da < 0 === db < 0) continue;
          const t = da / (da - db);
          const ca = corners[a]!,
            cb = corners[b]!;
          sx += ca[0] + (cb[0] - ca[0]) * t;
          sy += ca[1] + (cb[1] - ca[1]) * t;
          sz += ca[2] + (cb[2] - ca[2]) * t;
          n++;
        }
        let p: V3 = [min[0] + (i + sx / n) * cell, min[1] + (j + sy / n) * cell, min[2] + (k + sz / n) * cell];
        // Two Newton steps onto the surface make smooth shapes smooth.
        for (let it = 0; it < 2; it++) {
          const d = sdf(p[0], p[1], p[2]);
          const g = gradient(sdf, p[0], p[1], p[2]);
          const step = Math.max(-cell, Math.min(cell, d));
          p = [p[0] - g[0] * step, p[1] - g[1] * step, p[2] - g[2] * step];
        }
        const normal = gradient(sdf, p[0], p[1], p[2]);
        cellVertex[cAt(i, j, k)] = mesh.positions.length / 3;
        mesh.positions.push(...p);
        mesh.normals.push(...normal);
        mesh.colors.push(...colorAt(p, normal));
      }
  // Quads around every grid edge with a sign change, wound so the normal points outwards: from
  // the edge's inside end to its outside end. (Deciding it per quad from the vertices' normals
  // turned a quad inside out wherever the field's gradient was unsteady, a hole in the surface:
  // white specks in the curls.)
  const quad = (a: number, b: number, c: number, d: number, inside: boolean) => {
    if (a < 0 || b < 0 || c < 0 || d < 0) return;
    if (inside) mesh.indices.push(a, b, c, a, c, d);
    else mesh.indices.push(a, c, b, a, d, c);
  };
  for (let k = 1; k < nz - 1; k++)
    for (let j = 1; j < ny - 1; j++)
      for (let i = 0; i < nx - 1; i++) {
        const a = field[at(i, j, k)]!,
          b = field[at(i + 1, j, k)]!;
        if (a < 0 === b < 0) continue;
        quad(
          cellVertex[cAt(i, j - 1, k - 1)]!,
          cellVertex[cAt(i, j, k - 1)]!,
          cellVertex[cAt(i, j, k)]!,
          cellVertex[cAt(i, j - 1, k)]!,
          a < 0,
        );
      }
  for (let k = 1; k < nz - 1; k++)
    for (let j = 0; j < ny - 1; j++)
      for (let i = 1; i < nx - 1; i++) {
        const a = field[at(i, j, k)]!,
          b = field[at(i, j + 1, k)]!;
        if (a < 0 === b < 0) continue;
        quad(
          cellVertex[cAt(i - 1, j, k - 1)]!,
          cellVertex[cAt(i - 1, j, k)]!,
          cellVertex[cAt(i, j, k)]!,
          cellVertex[cAt(i, j, k - 1)]!,
          a < 0,
        );
      }
  for (let k = 0; k < nz - 1; k++)
    for (let j = 1; j < ny - 1; j++)
      for (let i = 1; i < nx - 1; i++) {
        const a = field[at(i, j, k)]!,
          b = field[at(i, j, k + 1)]!;
        if (a < 0 === b < 0) continue;
        quad(
          cellVertex[cAt(i - 1, j - 1, k)]!,
          cellVertex[cAt(i, j - 1, k)]!,
          cellVertex[cAt(i, j, k)]!,
          cellVertex[cAt(i - 1, j, k)]!,
          a < 0,
        );
      }
  return mesh;
}
