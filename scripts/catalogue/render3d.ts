// Renders GLB scenes with three.js inside the generator's Chromium (software WebGL), for the
// catalogue's preview images. three is served from node_modules through a routed fake origin,
// so nothing leaves the machine.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import type { LightingPreset } from '@parla/shared/schemas/catalogue';

const require = createRequire(import.meta.url);
const THREE_DIR = join(dirname(require.resolve('three')), '..');
const ORIGIN = 'http://catalogue.invalid';

const PAGE = `<!doctype html><html><head><script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script></head>
<body style="margin:0;background:transparent"><script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
window.renderScene = async (o) => {
  const canvas = document.createElement('canvas');
  canvas.width = o.width; canvas.height = o.height;
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = o.lighting.exposure;
  renderer.shadowMap.enabled = !!o.shadows;
  const scene = new THREE.Scene();
  if (o.background) scene.background = new THREE.Color(o.background);
  if (o.fog) scene.fog = new THREE.Fog(o.fog[0], o.fog[1], o.fog[2]);
  const L = o.lighting;
  scene.add(new THREE.AmbientLight(L.ambient.color, L.ambient.intensity));
  scene.add(new THREE.HemisphereLight(L.hemisphere.sky, L.hemisphere.ground, L.hemisphere.intensity));
  for (const d of L.directional) {
    const light = new THREE.DirectionalLight(d.color, d.intensity);
    light.position.set(...d.position);
    if (o.shadows && d === L.directional[0]) {
      light.castShadow = true;
      light.shadow.mapSize.set(2048, 2048);
      const c = light.shadow.camera; c.left = -6; c.right = 6; c.top = 6; c.bottom = -6; c.far = 40;
      light.shadow.bias = -0.0005;
    }
    scene.add(light);
  }
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  for (const m of o.models) {
    const bytes = Uint8Array.from(atob(m.glb), (c) => c.charCodeAt(0));
    const gltf = await loader.parseAsync(bytes.buffer, '');
    const root = gltf.scene;
    if (m.position) root.position.set(...m.position);
    if (m.rotationY) root.rotation.y = m.rotationY;
    root.traverse((obj) => {
      if (obj.isMesh) {
        obj.castShadow = !!o.shadows; obj.receiveShadow = !!o.shadows;
        if (obj.morphTargetDictionary && m.morphs) for (const [k, v] of Object.entries(m.morphs)) { const i = obj.morphTargetDictionary[k]; if (i !== undefined) obj.morphTargetInfluences[i] = v; }
      }
    });
    scene.add(root);
  }
  const cam = new THREE.PerspectiveCamera(o.camera.fov, o.width / o.height, 0.05, 200);
  cam.position.set(...o.camera.position);
  cam.lookAt(...o.camera.target);
  renderer.render(scene, cam);
  const url = canvas.toDataURL(o.type ?? 'image/png', o.quality ?? 0.9);
  renderer.dispose();
  return url;
};
window.ready = true;
</script></body></html>`;

export async function openRenderer(page: Page): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
    if (path.startsWith('/three/')) {
      const file = join(THREE_DIR, path.slice('/three/'.length));
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
    }
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
}

export interface RenderOptions {
  width: number;
  height: number;
  lighting: LightingPreset;
  camera: { position: [number, number, number]; target: [number, number, number]; fov: number };
  models: { glb: Buffer; position?: [number, number, number]; rotationY?: number; morphs?: Record<string, number> }[];
  background?: string;
  fog?: [string, number, number];
  shadows?: boolean;
  type?: 'image/png' | 'image/webp' | 'image/jpeg';
  quality?: number;
}

export async function renderGlb(page: Page, o: RenderOptions): Promise<Buffer> {
  const args = { ...o, models: o.models.map((m) => ({ ...m, glb: m.glb.toString('base64') })) };
  const url = await page.evaluate((a) => (window as unknown as { renderScene(x: unknown): Promise<string> }).renderScene(a), args);
  return Buffer.from(url.split(',')[1]!, 'base64');
}

/** A neutral studio light for previews of avatars. */
export const STUDIO_LIGHT: LightingPreset = {
  ambient: { color: '#ffffff', intensity: 0.25 },
  hemisphere: { sky: '#eef3ff', ground: '#6b5a50', intensity: 0.9 },
  directional: [
    { color: '#fff4e8', intensity: 2.2, position: [1.5, 2.5, 2.5] },
    { color: '#cfe0ff', intensity: 0.7, position: [-2, 1.2, 1.5] },
    { color: '#ffffff', intensity: 0.9, position: [0, 2.5, -2.5] },
  ],
  exposure: 1.0,
};
