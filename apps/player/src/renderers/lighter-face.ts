// A lighter face for software WebGL (decision 128, issue 36 item 2). Measured with the rest of the
// frame unchanged, the face's mesh costs SwiftShader about 0.8 µs a triangle, whatever its pixels
// (a flat colour instead of its lit, textured material saved nothing): ub-aisha's 7,681
// triangles about 7 ms a frame, fb-ethan's 13,543 about 11, a third of a talking frame. The face
// is surface nets at 5 mm cells, more than a triangle per pixel on a 230 × 260 canvas: outside
// the mouth it can lose most of its triangles without a visible change, if the simplifier keeps
// what shows:
// - the shading and the texture: normals, texture coordinates and vertex colours weigh in the
//   error (an earlier trial on positions only showed dark blotches on the cheeks);
// - the motion: each vertex's offsets under the blink, the smile and the visemes that move the
//   face most weigh like positions, so a vertex collapses only into a neighbour that moves alike;
// - the mouth and the lids: the triangles around what the visemes move (lips, jaw, the cavity,
//   the teeth) go around this simplification, the mouth's simplified on its own in its open pose
//   (lighterMouth, below); those between the vertices the blink moves are kept as built.
// meshoptimizer writes a new index list over the same vertices: the morph targets, the texture
// and the colours are untouched, only fewer triangles are drawn. Loaded in software WebGL only.
import type { BufferAttribute, Mesh } from 'three';
import { BufferAttribute as Attribute } from 'three';

/** The share of the face's triangles aimed at outside the mouth and the lids; the error bound
 *  stops it first (with the mouth's own: ub-aisha 7,681 → 3,639, fb-ethan 13,543 → 4,510). */
export const FACE_SHARE = 0.25;
/** How far the simplified face may stray, as a share of its size (0.5 %: under 2 mm). */
const MAX_ERROR = 0.005;
/** meshoptimizer weighs at most 32 attributes: normal, uv and colour (8), and 8 targets' offsets. */
const MOTIONS = 8;
/** A vertex a viseme moves further than this (metres) is part of the mouth. */
const MOVES = 0.001;
/** A vertex the blink moves further than this (metres) is part of a lid. */
const LIDS_MOVE = 0.0002;
/** Metres around the moving vertices' box kept as built. */
const MOUTH_MARGIN = 0.005;
/** The mouth's own triangles aimed at, and its error bound (0.2 % of the face: half a millimetre,
 *  a third of a drawing-buffer pixel): ub-aisha 3,925 → 1,185, fb-ethan 5,005 → 1,336. */
const MOUTH_SHARE = 0.25;
const MOUTH_ERROR = 0.002;
/** The viseme whose pose the mouth is simplified in: the open "aa", the lips apart. */
const OPEN = 'viseme_aa';
const ALWAYS = ['blink', 'smile'];

/** The morph targets whose motion the simplified face must keep: the blink, the smile and the
 *  visemes that move the most (they share their regions with the others: lips, jaw, cheeks). */
function motionTargets(mesh: Mesh): BufferAttribute[] {
  const targets = (mesh.geometry.morphAttributes.position ?? []) as BufferAttribute[];
  const names = Object.entries(mesh.morphTargetDictionary ?? {});
  const reach = (t: BufferAttribute) => {
    let sum = 0;
    for (let i = 0; i < t.count; i++) sum += Math.hypot(t.getX(i), t.getY(i), t.getZ(i));
    return sum;
  };
  const kept = names.filter(([name]) => ALWAYS.includes(name)).map(([, k]) => targets[k]!);
  const others = names
    .filter(([name]) => !ALWAYS.includes(name))
    .map(([, k]) => ({ t: targets[k]!, reach: reach(targets[k]!) }))
    .sort((a, b) => b.reach - a.reach);
  return [...kept, ...others.map((o) => o.t)].slice(0, MOTIONS);
}

/** The vertices kept as built: every one inside the box of those the visemes move, widened by
 *  `MOUTH_MARGIN` (lips, jaw, the cavity, the teeth), and the lids. The forehead, the nose, the
 *  cheeks, the ears, the back of the head and the neck are simplified. */
export function keptAsBuilt(face: Mesh, positions: Float32Array): Uint8Array {
  const g = face.geometry;
  const n = positions.length / 3;
  const visemes = Object.entries(face.morphTargetDictionary ?? {})
    .filter(([name]) => name.startsWith('viseme_'))
    .map(([, k]) => (g.morphAttributes.position as BufferAttribute[])[k]!);
  const lo = [Infinity, Infinity, Infinity],
    hi = [-Infinity, -Infinity, -Infinity];
  for (const t of visemes)
    for (let i = 0; i < n; i++) {
      if (Math.hypot(t.getX(i), t.getY(i), t.getZ(i)) <= MOVES) continue;
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, positions[i * 3 + k]! - MOUTH_MARGIN);
        hi[k] = Math.max(hi[k]!, positions[i * 3 + k]! + MOUTH_MARGIN);
      }
    }
  const locked = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let inside = 1;
    for (let k = 0; k < 3; k++) if (positions[i * 3 + k]! < lo[k]! || positions[i * 3 + k]! > hi[k]!) inside = 0;
    locked[i] = inside;
  }
  // The lids: every vertex the blink moves (the lids are open at rest, so their triangles are
  // not degenerate there; simplified, the closed lids let the eye's catch-light through).
  const blink = face.morphTargetDictionary?.blink;
  const lids = blink === undefined ? null : (g.morphAttributes.position as BufferAttribute[])[blink];
  if (lids) for (let i = 0; i < n; i++) if (Math.hypot(lids.getX(i), lids.getY(i), lids.getZ(i)) > LIDS_MOVE) locked[i] = 1;
  return locked;
}

/** Simplifies the face (a mesh with morph targets) in place; returns its triangles after. */
export async function lightenFace(face: Mesh, share = FACE_SHARE): Promise<number> {
  const g = face.geometry;
  const position = g.getAttribute('position') as BufferAttribute;
  // Offsets are read as motion: only relative morph targets (the catalogue's) qualify.
  const fit = g.index && position && g.morphTargetsRelative && g.morphAttributes.position?.length && g.groups.length === 0;
  if (!fit || !g.index) return g.index ? g.index.count / 3 : 0;
  const { MeshoptSimplifier } = await import('meshoptimizer/simplifier');
  await MeshoptSimplifier.ready;
  const n = position.count;
  const plain = ['normal', 'uv', 'color'].map((name) => g.getAttribute(name) as BufferAttribute | undefined);
  const moves = motionTargets(face);
  const stride = 8 + 3 * moves.length;
  const positions = new Float32Array(n * 3);
  const attributes = new Float32Array(n * stride);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) positions[i * 3 + k] = position.getComponent(i, k);
    let o = i * stride;
    // A missing attribute weighs nothing (zeros); uv has 2 components, the others 3.
    plain.forEach((a, j) => {
      const size = j === 1 ? 2 : 3;
      for (let k = 0; k < size; k++) attributes[o + k] = a && k < a.itemSize ? a.getComponent(i, k) : 0;
      o += size;
    });
    for (const t of moves) for (let k = 0; k < 3; k++) attributes[o++] = t.getComponent(i, k);
  }
  // Normals weigh half (they vary smoothly); texture coordinates, colours and the motion in full
  // (the offsets are in the positions' unit: a collapse that changes a vertex's motion is an error).
  const weights = [0.5, 0.5, 0.5, 1, 1, 1, 1, 1, ...new Array<number>(3 * moves.length).fill(1)];
  // The kept triangles go around the simplifier: at rest the lips' inner edges meet, and
  // meshoptimizer, which joins vertices by position, dropped the triangles between them as
  // degenerate even with every vertex there locked (the open mouth showed skin, not the teeth).
  // The rest is simplified up to the kept vertices, locked, so no seam opens.
  const locked = keptAsBuilt(face, positions);
  const source = g.index.array;
  const asBuilt: number[] = [];
  const rest: number[] = [];
  for (let i = 0; i < source.length; i += 3) {
    const tri = [source[i]!, source[i + 1]!, source[i + 2]!];
    (tri.every((v) => locked[v]) ? asBuilt : rest).push(...tri);
  }
  const mouth = await lighterMouth(face, positions, attributes, stride, weights, asBuilt, rest);
  const indices = new Uint32Array(rest);
  const target = Math.floor((source.length * share) / 3) * 3 - asBuilt.length;
  const [simplified] = MeshoptSimplifier.simplifyWithAttributes(
    indices,
    positions,
    3,
    attributes,
    stride,
    weights,
    locked,
    Math.max(0, target),
    MAX_ERROR,
  );
  const kept = new Uint32Array(mouth.length + simplified.length);
  kept.set(mouth);
  kept.set(simplified, mouth.length);
  g.setIndex(new Attribute(n > 65535 ? kept : new Uint16Array(kept), 1));
  return kept.length / 3;
}

/** A vertex of `face` its morph target `name` moves further than `by` (metres). */
export function movedBy(face: Mesh, name: string, by: number): Uint8Array {
  const k = face.morphTargetDictionary?.[name];
  const t = k === undefined ? null : (face.geometry.morphAttributes.position as BufferAttribute[])[k];
  const out = new Uint8Array(face.geometry.getAttribute('position').count);
  if (t) for (let i = 0; i < out.length; i++) if (Math.hypot(t.getX(i), t.getY(i), t.getZ(i)) > by) out[i] = 1;
  return out;
}

/**
 * The kept regions' triangles (`asBuilt`), with the mouth's own simplified: lips, jaw, cavity and
 * teeth hold 3,900–5,000 triangles for a mouth about 50 pixels wide, and a mouth frame draws
 * them all. meshoptimizer joins vertices by position, and at rest the lips' inner edges meet: it
 * dropped the triangles between them (the open mouth showed skin). So the mouth is simplified in
 * its open pose ("aa", the lips apart), where no two of its vertices meet, with its motion and
 * shading weighed as for the rest of the face, and its edge to the lids and to the rest locked
 * (no seam). The lids are kept as built (simplified, the closed lids let the catch-light through).
 */
async function lighterMouth(
  face: Mesh,
  positions: Float32Array,
  attributes: Float32Array,
  stride: number,
  weights: number[],
  asBuilt: number[],
  rest: number[],
): Promise<Uint32Array> {
  const lid = movedBy(face, 'blink', LIDS_MOVE);
  const open = face.morphTargetDictionary?.[OPEN];
  if (open === undefined) return new Uint32Array(asBuilt);
  const lids: number[] = [];
  const mouth: number[] = [];
  for (let i = 0; i < asBuilt.length; i += 3) {
    const tri = [asBuilt[i]!, asBuilt[i + 1]!, asBuilt[i + 2]!];
    (tri.some((v) => lid[v]) ? lids : mouth).push(...tri);
  }
  const edge = new Uint8Array(positions.length / 3);
  for (const v of lids) edge[v] = 1;
  for (const v of rest) edge[v] = 1;
  const offsets = (face.geometry.morphAttributes.position as BufferAttribute[])[open]!;
  const opened = positions.slice();
  for (let i = 0; i < offsets.count; i++) for (let k = 0; k < 3; k++) opened[i * 3 + k]! += offsets.getComponent(i, k);
  const { MeshoptSimplifier } = await import('meshoptimizer/simplifier');
  const [simplified] = MeshoptSimplifier.simplifyWithAttributes(
    new Uint32Array(mouth),
    opened,
    3,
    attributes,
    stride,
    weights,
    edge,
    Math.floor((mouth.length * MOUTH_SHARE) / 3) * 3,
    MOUTH_ERROR,
  );
  const out = new Uint32Array(lids.length + simplified.length);
  out.set(lids);
  out.set(simplified, lids.length);
  return out;
}
