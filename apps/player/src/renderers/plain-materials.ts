// Cheaper surfaces for a 3D face in software WebGL (decision 128). A CPU rasteriser (SwiftShader,
// llvmpipe) runs the fragment shader for every covered pixel, and three's physical material
// (MeshStandardMaterial: a GGX specular term per light, with the hemisphere and the ambient) was
// the largest part of a frame. Phong keeps what a face needs from it (the lit and shaded sides,
// a soft sheen on skin and lips, the eyes' glint) at a fraction of the arithmetic; its shininess
// and specular strength follow the glTF roughness, so a rough cloth stays matte. A GPU visitor
// keeps the physical material.
import { Color, MeshPhongMaterial, type Material, type Mesh, type MeshStandardMaterial, type Object3D } from 'three';

/** glTF's dielectric reflectance at normal incidence (F0 = 0.04), scaled down by roughness. */
const F0 = 0.04;

/** Phong's shininess for a glTF roughness: the highlight's width matches GGX's near its peak. */
export function shininessFor(roughness: number): number {
  const a = Math.max(0.08, Math.min(1, roughness)) ** 2;
  return Math.min(400, Math.max(2, 2 / (a * a) - 2));
}

/** The Phong material that stands in for a physical one, keeping its textures and alpha. */
export function plainMaterial(m: MeshStandardMaterial): MeshPhongMaterial {
  const rough = m.roughness;
  // A wide, rough highlight spreads GGX's energy: Phong's normalised lobe is dimmer there.
  const strength = F0 * (1 - rough) * 4;
  const p = new MeshPhongMaterial({
    name: m.name,
    color: m.color,
    map: m.map,
    normalMap: m.normalMap,
    normalScale: m.normalScale,
    emissive: m.emissive,
    emissiveMap: m.emissiveMap,
    emissiveIntensity: m.emissiveIntensity,
    alphaMap: m.alphaMap,
    aoMap: m.aoMap,
    aoMapIntensity: m.aoMapIntensity,
    specular: new Color(strength, strength, strength),
    shininess: shininessFor(rough),
    transparent: m.transparent,
    opacity: m.opacity,
    alphaTest: m.alphaTest,
    alphaToCoverage: false,
    side: m.side,
    vertexColors: m.vertexColors,
    depthWrite: m.depthWrite,
    depthTest: m.depthTest,
    flatShading: m.flatShading,
    fog: m.fog,
  });
  p.userData = m.userData;
  return p;
}

/** Replaces every physical material under `root` by its plain stand-in (shared materials once). */
export function applyPlainMaterials(root: Object3D): void {
  const done = new Map<Material, Material>();
  const swap = (m: Material): Material => {
    if (!(m as MeshStandardMaterial).isMeshStandardMaterial) return m;
    let p = done.get(m);
    if (!p) {
      p = plainMaterial(m as MeshStandardMaterial);
      done.set(m, p);
    }
    return p;
  };
  root.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh) return;
    mesh.material = Array.isArray(mesh.material) ? mesh.material.map(swap) : swap(mesh.material);
  });
  for (const m of done.keys()) m.dispose();
}
