// Edge smoothing that software WebGL can afford (issue 36, item 2). Multisampling a canvas costs a
// CPU rasteriser (SwiftShader, llvmpipe) every sample of every covered pixel; FXAA is one pass over
// the finished picture that finds the stair-steps by their contrast and blends along them, so the
// jaw, the hairline and the teeth come out smooth at a fraction of the cost. three.js's own passes
// (examples/jsm/postprocessing), bundled into the 3D chunk's software-only part: the scene drawn
// into a half-float target, tone mapping and sRGB (OutputPass: FXAA needs the final colours), then
// FXAA to the canvas. Alpha is kept, so an upper-body face still floats over the stage's background.
import type { Camera, Scene, WebGLRenderer } from 'three';
import { EffectComposer } from 'three/addons/postprocessing/EffectComposer.js';
import { FXAAPass } from 'three/addons/postprocessing/FXAAPass.js';
import { OutputPass } from 'three/addons/postprocessing/OutputPass.js';
import { RenderPass } from 'three/addons/postprocessing/RenderPass.js';

interface SmoothEdges {
  render(): void;
  setSize(width: number, height: number): void;
  dispose(): void;
}

export function smoothEdges(renderer: WebGLRenderer, scene: Scene, camera: Camera): SmoothEdges {
  const composer = new EffectComposer(renderer);
  composer.addPass(new RenderPass(scene, camera));
  composer.addPass(new OutputPass());
  composer.addPass(new FXAAPass());
  return {
    render: () => composer.render(),
    setSize: (w, h) => composer.setSize(w, h),
    dispose: () => composer.dispose(),
  };
}
