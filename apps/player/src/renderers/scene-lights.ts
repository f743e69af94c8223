// The lights of a 3D avatar's scene from a lighting preset (the catalogue's, or the studio light
// when the avatar names none), shared by the live renderer and the viseme atlas.
import { AmbientLight, DirectionalLight, HemisphereLight, type Scene } from 'three';
import type { LightingPreset } from '@parla/shared/schemas/catalogue';

export const STUDIO: LightingPreset = {
  ambient: { color: '#ffffff', intensity: 0.3 },
  hemisphere: { sky: '#eef3ff', ground: '#6b5a50', intensity: 0.9 },
  directional: [
    { color: '#fff4e8', intensity: 2.1, position: [1.5, 2.5, 2.5] },
    { color: '#cfe0ff', intensity: 0.8, position: [-2, 1.2, 1.5] },
    { color: '#ffffff', intensity: 0.9, position: [0, 2.5, -2.5] },
  ],
  exposure: 1,
};

export function addLights(scene: Scene, preset: LightingPreset, shadows: boolean): void {
  scene.add(new AmbientLight(preset.ambient.color, preset.ambient.intensity));
  scene.add(new HemisphereLight(preset.hemisphere.sky, preset.hemisphere.ground, preset.hemisphere.intensity));
  preset.directional.forEach((d, i) => {
    const light = new DirectionalLight(d.color, d.intensity);
    light.position.set(...d.position);
    if (shadows && i === 0) {
      light.castShadow = true;
      light.shadow.mapSize.set(1024, 1024);
      const c = light.shadow.camera;
      c.left = -3;
      c.right = 3;
      c.top = 3;
      c.bottom = -3;
      c.far = 30;
      light.shadow.bias = -0.0008;
    }
    scene.add(light);
  });
}
