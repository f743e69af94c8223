// Mesh data as flat arrays, and the operations the generator needs: merge, transform, normals.
import type { V3 } from './sdf';

export interface MeshData {
  positions: number[];
  normals: number[];
  /** Linear RGB 0..1, three per vertex. */
  colors: number[];
  indices: number[];
  /** Texture coordinates (0..1), two per vertex, when the mesh is textured. */
  uvs?: number[];
}

export const emptyMesh = (): MeshData => ({ positions: [], normals: [], colors: [], indices: [] });

export function vertexCount(m: MeshData): number {
  return m.positions.length / 3;
}

export function merge(...meshes: MeshData[]): MeshData {
  const out = emptyMesh();
  for (const m of meshes) {
    const base = vertexCount(out);
    out.positions.push(...m.positions);
    out.normals.push(...m.normals);
    out.colors.push(...m.colors);
    for (const i of m.indices) out.indices.push(i + base);
  }
  if (meshes.length && meshes.every((m) => m.uvs)) out.uvs = meshes.flatMap((m) => m.uvs!);
  return out;
}

export function translate(m: MeshData, t: V3): MeshData {
  const positions = m.positions.map((v, i) => v + t[i % 3]!);
  return { ...m, positions };
}

/** Smooth normals from faces (area weighted). */
export function computeNormals(m: MeshData): void {
  const n = new Float64Array(m.positions.length);
  const p = m.positions;
  for (let i = 0; i < m.indices.length; i += 3) {
    const a = m.indices[i]! * 3,
      b = m.indices[i + 1]! * 3,
      c = m.indices[i + 2]! * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    for (const k of [a, b, c]) {
      n[k] += nx;
      n[k + 1] += ny;
      n[k + 2] += nz;
    }
  }
  m.normals = [];
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i]!, n[i + 1]!, n[i + 2]!) || 1;
    m.normals.push(n[i]! / l, n[i + 1]! / l, n[i + 2]! / l);
  }
}

/** sRGB hex → linear RGB (glTF vertex colours are linear). */
export function linear(hex: string): V3 {
  const n = parseInt(hex.slice(1), 16);
  const f = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return [f((n >> 16) & 255), f((n >> 8) & 255), f(n & 255)];
}

export function lerp3(a: V3, b: V3, t: number): V3 {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function paint(m: MeshData, color: V3): MeshData {
  const colors: number[] = [];
  for (let i = 0; i < vertexCount(m); i++) colors.push(...color);
  return { ...m, colors };
}

/** Splits a mesh in two: triangles whose corners all satisfy `inA`, and the rest. */
/** The mesh of these triangles (`indices` into `m`'s vertices), with only the vertices they use. */
export function compact(m: MeshData, indices: ArrayLike<number>): MeshData {
  const P = m.positions;
  const remap = new Map<number, number>();
  const out: MeshData = { positions: [], normals: [], colors: [], indices: [] };
  for (const i of Array.from(indices)) {
    if (!remap.has(i)) {
      remap.set(i, remap.size);
      out.positions.push(P[i * 3]!, P[i * 3 + 1]!, P[i * 3 + 2]!);
      out.normals.push(m.normals[i * 3]!, m.normals[i * 3 + 1]!, m.normals[i * 3 + 2]!);
      out.colors.push(m.colors[i * 3]!, m.colors[i * 3 + 1]!, m.colors[i * 3 + 2]!);
      if (m.uvs) (out.uvs ??= []).push(m.uvs[i * 2]!, m.uvs[i * 2 + 1]!);
    }
    out.indices.push(remap.get(i)!);
  }
  return out;
}

export function partition(m: MeshData, inA: (vertex: number) => boolean): [MeshData, MeshData] {
  const parts = [emptyMesh(), emptyMesh()] as [MeshData, MeshData];
  const maps = [new Map<number, number>(), new Map<number, number>()];
  for (let i = 0; i < m.indices.length; i += 3) {
    const tri = [m.indices[i]!, m.indices[i + 1]!, m.indices[i + 2]!];
    const k = tri.every(inA) ? 0 : 1;
    const out = parts[k],
      map = maps[k]!;
    for (const v of tri) {
      if (!map.has(v)) {
        map.set(v, map.size);
        out.positions.push(m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!);
        out.normals.push(m.normals[v * 3]!, m.normals[v * 3 + 1]!, m.normals[v * 3 + 2]!);
        out.colors.push(m.colors[v * 3]!, m.colors[v * 3 + 1]!, m.colors[v * 3 + 2]!);
      }
      out.indices.push(map.get(v)!);
    }
  }
  return parts;
}
