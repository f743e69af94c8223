// Fewer triangles for a 3D face in software WebGL (decision 128). A CPU rasteriser pays for every
// triangle of every frame, drawn or hidden (about half a microsecond each in SwiftShader, measured:
// 60,000 tiny triangles cost 30 ms a frame with trivial shaders), and the catalogue's characters
// carry 60,000–70,000, most of them in the hair's locks. meshoptimizer's simplifier (the library
// that compressed them, decision 117) collapses edges where the surface stays within a small
// error, writing a new index list over the same vertices: the morph targets, the skin and the
// texture coordinates are untouched. The face (the mesh with morph targets: visemes, blink, smile)
// is left to lighter-face.ts, which keeps its shading, its motion and its mouth.
import type { BufferAttribute, BufferGeometry, Mesh, Object3D, SkinnedMesh } from 'three';
import { BufferAttribute as Attribute } from 'three';

/** The figure's triangles at most, all meshes together, in software WebGL. */
export const TRIANGLE_BUDGET = 12_000;
/** A separate part of a mesh this small (a share of its triangles) is a trim, kept whole. */
const TRIM_SHARE = 0.1;
/** Meshes this small are left as they are. */
const SMALL = 2_000;
/** How far the simplified surface may stray, as a share of the mesh's size. */
const MAX_ERROR = 0.02;
/** The eyes' bound, a share of the eyeball's size (about 24 mm): a quarter of a millimetre, a
 *  quarter of a drawing-buffer pixel at the software profile's sizes (an eye is ~12 pixels wide). */
const EYE_ERROR = 0.01;

function floats(a: BufferAttribute, n = a.itemSize): Float32Array {
  const out = new Float32Array(a.count * n);
  for (let i = 0; i < a.count; i++) for (let k = 0; k < n; k++) out[i * n + k] = a.getComponent(i, k);
  return out;
}

function triangles(mesh: Mesh): number {
  const g = mesh.geometry;
  return (g.index ? g.index.count : g.getAttribute('position').count) / 3;
}

/** Simplifies the figure's large meshes until it has about `budget` triangles. */
export async function reduceTriangles(root: Object3D, budget = TRIANGLE_BUDGET): Promise<void> {
  const meshes: Mesh[] = [];
  root.traverse((o) => {
    const m = o as Mesh;
    if (m.isMesh && m.geometry.index && m.geometry.getAttribute('position')) meshes.push(m);
  });
  const total = meshes.reduce((n, m) => n + triangles(m), 0);
  // The face is kept whole; so are small meshes, and any drawn in parts (material groups).
  const large = meshes.filter(
    (m) => triangles(m) > SMALL && !m.geometry.morphAttributes.position?.length && m.geometry.groups.length === 0,
  );
  const fixed = total - large.reduce((n, m) => n + triangles(m), 0);
  if (total <= budget || large.length === 0) return;
  const share = Math.max(0.1, (budget - fixed) / (total - fixed));
  const { MeshoptSimplifier } = await import('meshoptimizer/simplifier');
  await MeshoptSimplifier.ready;
  const done = new Set<BufferGeometry>();
  for (const mesh of large) {
    const g = mesh.geometry;
    if (done.has(g)) continue;
    done.add(g);
    const positions = floats(g.getAttribute('position') as BufferAttribute, 3);
    const normal = g.getAttribute('normal') as BufferAttribute | undefined;
    const { main: indices, trims } = splitTrims(new Uint32Array(g.index!.array), positions);
    const target = Math.floor((indices.length * share) / 3) * 3;
    const [simplified] = MeshoptSimplifier.simplifyWithAttributes(
      indices,
      positions,
      3,
      normal ? floats(normal, 3) : new Float32Array(positions.length),
      3,
      [0.25, 0.25, 0.25],
      null,
      target,
      MAX_ERROR,
      // Where the skinned body meets the face no seam may open; hair locks are free.
      (mesh as SkinnedMesh).isSkinnedMesh ? ['LockBorder'] : [],
    );
    const kept = new Uint32Array(simplified.length + trims.length);
    kept.set(simplified);
    kept.set(trims, simplified.length);
    const count = g.getAttribute('position').count;
    g.setIndex(new Attribute(count > 65535 ? kept : new Uint16Array(kept), 1));
  }
}

/** Quantised position of vertex `v` (0.01 mm), to join the copies a colour edge splits. */
function spot(positions: Float32Array, v: number): string {
  return `${Math.round(positions[v * 3]! * 1e5)},${Math.round(positions[v * 3 + 1]! * 1e5)},${Math.round(positions[v * 3 + 2]! * 1e5)}`;
}

/**
 * Splits a mesh's triangles into its main surface and its trims: the parts that touch the rest
 * nowhere (neither by a vertex nor at a vertex's position) and hold at most TRIM_SHARE of its
 * triangles. The catalogue's clothes carry their edges so (a neckline's rolled hem, a collar, a
 * sleeve's cuff: strips a few millimetres wide laid over the body, character/trims.ts); simplified
 * with the body towards a tenth of its triangles, a cuff broke into slivers over the arm's skin.
 */
export function splitTrims(indices: Uint32Array, positions: Float32Array): { main: Uint32Array; trims: Uint32Array } {
  const count = positions.length / 3;
  const parent = new Int32Array(count).map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  const join = (a: number, b: number) => {
    parent[find(a)] = find(b);
  };
  for (let i = 0; i < indices.length; i += 3) {
    join(indices[i]!, indices[i + 1]!);
    join(indices[i]!, indices[i + 2]!);
  }
  const first = new Map<string, number>();
  for (let v = 0; v < count; v++) {
    const k = spot(positions, v);
    const w = first.get(k);
    if (w === undefined) first.set(k, v);
    else join(v, w);
  }
  const size = new Map<number, number>();
  for (let i = 0; i < indices.length; i += 3) size.set(find(indices[i]!), (size.get(find(indices[i]!)) ?? 0) + 1);
  const small = (i: number) => size.get(find(indices[i]!))! <= (TRIM_SHARE * indices.length) / 3;
  const main: number[] = [];
  const trims: number[] = [];
  for (let i = 0; i < indices.length; i += 3) (small(i) ? trims : main).push(indices[i]!, indices[i + 1]!, indices[i + 2]!);
  return { main: Uint32Array.from(main), trims: Uint32Array.from(trims) };
}

/**
 * Fewer triangles for the catalogue's eyeballs (decision 128): each is a sphere of 1,600
 * triangles (21 rings of 41 columns, the iris and pupil drawn by vertex colours) drawn on every
 * frame, two of them a quarter of a talking frame's triangles, for an eye about 12 pixels wide.
 * The colours weigh in full, so the rings where the pupil, the iris, its dark limbal ring and the
 * white meet stay where they are; the columns and the hidden back of the ball go (ub-aisha's
 * eye: 1,600 → 503). The geometry is shared by both eyes; the eyes still turn as before.
 */
export async function lightenEyes(eyes: Mesh[]): Promise<void> {
  const { MeshoptSimplifier } = await import('meshoptimizer/simplifier');
  await MeshoptSimplifier.ready;
  const done = new Set<BufferGeometry>();
  for (const { geometry: g } of eyes) {
    const color = g.getAttribute('color') as BufferAttribute | undefined;
    const normal = g.getAttribute('normal') as BufferAttribute | undefined;
    if (done.has(g) || !g.index || !color || !normal || g.morphAttributes.position?.length || g.groups.length) continue;
    done.add(g);
    const positions = floats(g.getAttribute('position') as BufferAttribute, 3);
    const [n, c] = [floats(normal, 3), floats(color, 3)];
    const attributes = new Float32Array(positions.length * 2);
    for (let i = 0; i < positions.length / 3; i++) {
      attributes.set(n.subarray(i * 3, i * 3 + 3), i * 6);
      // Colours as the eye sees them (about sRGB): in linear values the pupil and a dark iris
      // differ by a hundredth, and the pupil grew by half over the iris's inner ring.
      for (let k = 0; k < 3; k++) attributes[i * 6 + 3 + k] = Math.sqrt(Math.max(0, c[i * 3 + k]!));
    }
    const [kept] = MeshoptSimplifier.simplifyWithAttributes(
      new Uint32Array(g.index.array),
      positions,
      3,
      attributes,
      6,
      [0.25, 0.25, 0.25, 1, 1, 1],
      null,
      0,
      EYE_ERROR,
    );
    const count = g.getAttribute('position').count;
    g.setIndex(new Attribute(count > 65535 ? kept : new Uint16Array(kept), 1));
  }
}
