// The parts of a 3D face drawn in the frames that redraw only the mouth (mouth-frames.ts, decision
// 128): the face and whatever rides the head in its space (hair, a headscarf, the brows), each by
// the triangles that reach into the mouth's rectangle. The rectangle is cleared and redrawn, so a
// triangle left out shows as a hole; they are chosen after each whole frame by their corners'
// projection as posed. (Chosen once in the face's space, within 2 cm of the moving part, the lids
// and brows under the rectangle's top rows were left out when the head nodded: a streak of the
// eye's white and of the cleared canvas under fb-ethan's brow.)
import { BackSide, BufferAttribute, BufferGeometry, DoubleSide, Mesh, Vector3, type Material, type Matrix4 } from 'three';
import type { BufferRect } from './mouth-frames';

/** Morph targets that move in a mouth frame; the blink, the smile (it eases over a third of a
 *  second) and the eyes wait for the next whole frame. */
export const MOVING = /^viseme_/;
/** Drawing-buffer pixels a triangle's projected box may miss the rectangle by and still be drawn:
 *  the rasteriser's own rounding of its corners (fixed point, single precision). */
const SLACK = 1;
/** Pixels² of projected area within which a triangle's facing is not trusted (kept): a sliver seen
 *  edge on (the nose's side) can cover a pixel's centre with a tiny area, and its sign here and in
 *  the rasteriser's fixed point may differ. At 0.01, 4 of 92 mouth frames of fb-ethan lost a pixel. */
const AREA_SLACK = 1;

/** A part riding the head in the face's space, drawn in mouth frames by the triangles that reach
 *  into the rectangle: a mesh beside it on the same vertices, morph targets and influences, whose
 *  index list is rewritten after each whole frame (`choose`). */
export interface NearPart {
  source: Mesh;
  mesh: Mesh;
  /** The source's index list, and its vertices at rest (x, y, z). */
  index: Uint32Array;
  rest: Float32Array;
  /** The targets a mouth frame holds (the blink, the smile), by their influence's index: the
   *  vertices they move and by how much. */
  held: { i: number; vertices: Uint32Array; by: Float32Array }[];
  /** Per triangle: a viseme moves a corner (drawn whatever the projection says). */
  moved: Uint8Array;
  /** Scratch: the vertices as posed, their projection, and the call that projected them. */
  posed: Float32Array;
  sx: Float32Array;
  sy: Float32Array;
  seen: Uint32Array;
  call: number;
  /** Whether `choose` kept any triangle. */
  any: boolean;
}

export function nearPart(source: Mesh): NearPart {
  const g = source.geometry;
  const all = g.index!;
  const part = new BufferGeometry();
  for (const [name, attribute] of Object.entries(g.attributes)) part.setAttribute(name, attribute);
  part.morphAttributes = g.morphAttributes;
  part.morphTargetsRelative = g.morphTargetsRelative;
  // As long as the whole list, of its type; a frame uses and uploads the start of it.
  const ArrayType = all.array.constructor as new (n: number) => Uint16Array | Uint32Array;
  part.setIndex(new BufferAttribute(new ArrayType(all.count), 1));
  part.setDrawRange(0, 0);
  const mesh = new Mesh(part, source.material);
  mesh.name = `${source.name}Mouth`;
  // The same influences: what the face shows, the mouth shows.
  mesh.morphTargetInfluences = source.morphTargetInfluences;
  mesh.morphTargetDictionary = source.morphTargetDictionary;
  mesh.renderOrder = source.renderOrder;
  mesh.position.copy(source.position);
  mesh.quaternion.copy(source.quaternion);
  mesh.scale.copy(source.scale);
  mesh.visible = false;
  source.parent!.add(mesh);
  // Read once through three's accessors (quantised or interleaved), then as plain arrays.
  const pos = g.getAttribute('position') as BufferAttribute;
  const rest = new Float32Array(pos.count * 3);
  for (let v = 0; v < pos.count; v++) rest.set([pos.getX(v), pos.getY(v), pos.getZ(v)], v * 3);
  const index = Uint32Array.from({ length: all.count }, (_, i) => all.getX(i));
  const movingVertex = new Uint8Array(pos.count);
  const targets = (g.morphAttributes.position ?? []) as BufferAttribute[];
  const held: NearPart['held'] = [];
  const d = new Vector3();
  for (const [name, i] of Object.entries(source.morphTargetDictionary ?? {})) {
    const t = targets[i];
    if (!t) continue;
    const vertices: number[] = [];
    const by: number[] = [];
    for (let v = 0; v < t.count; v++) {
      if (d.fromBufferAttribute(t, v).lengthSq() <= 1e-14) continue;
      if (MOVING.test(name)) movingVertex[v] = 1;
      else {
        vertices.push(v);
        by.push(d.x, d.y, d.z);
      }
    }
    if (vertices.length) held.push({ i, vertices: Uint32Array.from(vertices), by: Float32Array.from(by) });
  }
  const moved = new Uint8Array(index.length / 3);
  for (let i = 0; i < index.length; i += 3)
    moved[i / 3] = movingVertex[index[i]!]! | movingVertex[index[i + 1]!]! | movingVertex[index[i + 2]!]!;
  const [posed, sx, sy] = [new Float32Array(rest.length), new Float32Array(pos.count), new Float32Array(pos.count)];
  return { source, mesh, index, rest, held, moved, posed, sx, sy, seen: new Uint32Array(pos.count), call: 0, any: false };
}

/** Writes into `part`'s index list the triangles that a whole frame drawn with `toClip` (the part's
 *  space to clip space) could show in `rect` of a `width` × `height` drawing buffer: those a viseme
 *  moves, and those whose corners' box, as posed (the blink and the smile held at their influences
 *  until the next whole frame), meets the rectangle. Plain arrays: it runs after every whole frame. */
export function choose(part: NearPart, toClip: Matrix4, rect: BufferRect, width: number, height: number): void {
  const { source, mesh, index, posed, sx, sy, seen, moved } = part;
  const influences = source.morphTargetInfluences ?? [];
  posed.set(part.rest);
  for (const { i, vertices, by } of part.held) {
    const k = influences[i] ?? 0;
    if (k)
      for (let j = 0; j < vertices.length; j++) {
        const v = vertices[j]! * 3;
        posed[v] += k * by[j * 3]!;
        posed[v + 1] += k * by[j * 3 + 1]!;
        posed[v + 2] += k * by[j * 3 + 2]!;
      }
  }
  const call = ++part.call;
  const m = toClip.elements;
  // Projects vertex `v` once per call; false if it is behind the camera.
  const project = (v: number) => {
    if (seen[v] === call) return sx[v] === sx[v];
    seen[v] = call;
    const [x, y, z] = [posed[v * 3]!, posed[v * 3 + 1]!, posed[v * 3 + 2]!];
    const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    if (w <= 1e-6) return !(sx[v] = NaN);
    sx[v] = ((m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w + 1) * 0.5 * width;
    sy[v] = ((m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w + 1) * 0.5 * height;
    return true;
  };
  const [x0, x1, y0, y1] = [rect.x - SLACK, rect.x + rect.w + SLACK, rect.y - SLACK, rect.y + rect.h + SLACK];
  // The sides WebGL culls (three turns the front for a mirrored part): a triangle that faces away
  // draws nothing. The projected area's sign tells, in pixels² (a sliver within rounding is kept).
  const side = (source.material as Material).side;
  const facing = side === DoubleSide ? 0 : (side === BackSide ? -1 : 1) * (source.matrixWorld.determinant() < 0 ? -1 : 1);
  const out = mesh.geometry.index!;
  const list = out.array as Uint16Array | Uint32Array;
  let n = 0;
  for (let i = 0; i < index.length; i += 3) {
    const [a, b, c] = [index[i]!, index[i + 1]!, index[i + 2]!];
    const keep =
      moved[i / 3] ||
      !(project(a) && project(b) && project(c)) ||
      (facing * ((sx[b]! - sx[a]!) * (sy[c]! - sy[a]!) - (sx[c]! - sx[a]!) * (sy[b]! - sy[a]!)) > -AREA_SLACK &&
        Math.max(sx[a]!, sx[b]!, sx[c]!) > x0 &&
        Math.min(sx[a]!, sx[b]!, sx[c]!) < x1 &&
        Math.max(sy[a]!, sy[b]!, sy[c]!) > y0 &&
        Math.min(sy[a]!, sy[b]!, sy[c]!) < y1);
    if (!keep) continue;
    list[n++] = a;
    list[n++] = b;
    list[n++] = c;
  }
  out.clearUpdateRanges();
  out.addUpdateRange(0, n);
  out.needsUpdate = true;
  mesh.geometry.setDrawRange(0, n);
  part.any = n > 0;
}
