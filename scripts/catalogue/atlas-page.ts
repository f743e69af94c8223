// The generator page's side of the 3D viseme atlases (atlas3d.ts bundles this with esbuild and
// loads it into its Chromium): parse the GLB, then the player's own renderVisemeAtlas.
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import type { LightingPreset } from '@parla/shared/schemas/catalogue';
import { renderVisemeAtlas } from '../../apps/player/src/renderers/viseme-atlas';

(window as unknown as { renderAtlas: unknown }).renderAtlas = async (
  glb: string,
  width: number,
  height: number,
  lighting: LightingPreset,
) => {
  const bytes = Uint8Array.from(atob(glb), (c) => c.charCodeAt(0));
  const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parseAsync(bytes.buffer, '');
  const { manifest, atlas } = await renderVisemeAtlas(gltf.scene, { width, height, lighting });
  const data = await new Promise<string>((ok) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result));
    r.readAsDataURL(atlas);
  });
  return { manifest, atlas: data };
};
