// Fewer triangles where a surface is smooth enough (meshoptimizer's simplifier): the grid of
// surface nets puts as many triangles on a flat shirt as on a collar. In software WebGL a 3D
// avatar's frame cost depends little on its pixels (a quarter of them: 0.73 of the cost), much
// on its triangles. Colours and normals weigh in, so an edge between skin and cloth, or a
// crease, keeps its vertices.
import { MeshoptSimplifier } from 'meshoptimizer';
import { compact, type MeshData } from './mesh';

await MeshoptSimplifier.ready;

/** `maxError`: how far (metres) the surface may move. Unused vertices are dropped. */
export function simplifyMesh(m: MeshData, maxError: number): MeshData {
  const positions = Float32Array.from(m.positions);
  const count = positions.length / 3;
  const attributes = new Float32Array(count * 6);
  for (let v = 0; v < count; v++)
    for (let k = 0; k < 3; k++) {
      attributes[v * 6 + k] = m.normals[v * 3 + k]!;
      attributes[v * 6 + 3 + k] = m.colors[v * 3 + k]!;
    }
  const [indices] = MeshoptSimplifier.simplifyWithAttributes(
    Uint32Array.from(m.indices),
    positions,
    3,
    attributes,
    6,
    [0.5, 0.5, 0.5, 1, 1, 1],
    null,
    0,
    maxError,
    ['ErrorAbsolute'],
  );
  return compact(m, indices);
}
