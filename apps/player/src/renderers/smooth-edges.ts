// Edge smoothing that software WebGL can afford (issue 36, item 2). Multisampling a canvas costs a
// CPU rasteriser (SwiftShader, llvmpipe) every sample of every covered pixel; FXAA is one pass over
// the finished picture that finds the stair-steps by their contrast and blends along them, so the
// jaw, the hairline and the teeth come out smooth at a fraction of the cost. The scene is drawn
// into an 8-bit target with its final colours (three tone-maps and encodes sRGB in the materials'
// shaders, see below), and FXAA's console variant (below) draws it onto the canvas: one pass over
// the pixels besides the scene's own. Decision 124 drew the scene into a half-float
// target with a separate tone-mapping pass before FXAA, two passes more per frame for the same
// picture; decision 128 drew it on the canvas and copied the canvas into FXAA's texture at every
// frame (its amendment of 2026-11-30: the target instead of the copy). Alpha is kept, so an
// upper-body face still floats over the stage's background.
import {
  LinearFilter,
  NoBlending,
  SRGBColorSpace,
  ShaderMaterial,
  UniformsUtils,
  Vector2,
  WebGLRenderTarget,
  type Camera,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { FullScreenQuad } from 'three/addons/postprocessing/Pass.js';
import { FXAAShader } from 'three/addons/shaders/FXAAShader.js';
import type { BufferRect } from './mouth-frames';

/** How far the edge pass reads from a pixel, in drawing-buffer pixels: its corners (1) and along
 *  the edge half its longest step of 8 (4), plus one for rounding: a pixel this far from a change
 *  may change. (three's FXAA searched 12.5 texels along an edge and guessed 8 more: 24.) */
export const FXAA_REACH = 6;

export interface SmoothEdges {
  /** The whole canvas; or, over the picture kept from the frame before (in the target and on the
   *  canvas), the scene redrawn in `changed` only and FXAA over `changed` widened by its reach
   *  (mouth-frames.ts). */
  render(changed?: BufferRect): void;
  /** After the renderer's size changed: the target matches the drawing buffer. */
  setSize(): void;
  dispose(): void;
}

// FXAA finds edges by their contrast in luminance, and a transparent pixel's is 0: dark hair over
// the transparent canvas had too little contrast, and its outline stayed stair-stepped. Where the
// canvas is transparent, the luminance reads as mid-grey, so the figure's outline is an edge
// whatever its colour (almost: a mid-grey one is not); opaque pixels read as before.
//
// The variant is FXAA 3.11's "console" one (Lottes; three shipped it until r158), not three's
// current one (Flick's, with its search along the edge): SwiftShader runs 2 × 2 pixels in lockstep
// and every pixel seemed to pay for the branches it skips, so the pass cost its arithmetic over the
// whole canvas (paired: the pass as a plain copy cost 3–5 ms a frame less). This one reads the
// pixel, its four corners and four points along the edge, in straight-line code: 4–4.5 ms a frame
// less than three's (decision 128, amendment face10), the same edges at these sizes (screenshots).
const EDGE_PASS = /* glsl */ `
uniform sampler2D tDiffuse;
uniform vec2 resolution;
varying vec2 vUv;
float luma( vec4 c ) { return dot( c.rgb, vec3( 0.3, 0.59, 0.11 ) ) + ( 1.0 - c.a ) * 0.5; }
void main() {
  vec2 px = resolution;
  vec4 cM = texture( tDiffuse, vUv );
  float lNW = luma( texture( tDiffuse, vUv + vec2( -1.0, -1.0 ) * px ) );
  float lNE = luma( texture( tDiffuse, vUv + vec2( 1.0, -1.0 ) * px ) );
  float lSW = luma( texture( tDiffuse, vUv + vec2( -1.0, 1.0 ) * px ) );
  float lSE = luma( texture( tDiffuse, vUv + vec2( 1.0, 1.0 ) * px ) );
  float lM = luma( cM );
  float lMin = min( lM, min( min( lNW, lNE ), min( lSW, lSE ) ) );
  float lMax = max( lM, max( max( lNW, lNE ), max( lSW, lSE ) ) );
  // Across the corners' gradient, scaled so its shorter side is a pixel, at most 8 pixels.
  vec2 dir = vec2( -( ( lNW + lNE ) - ( lSW + lSE ) ), ( lNW + lSW ) - ( lNE + lSE ) );
  float dirReduce = max( ( lNW + lNE + lSW + lSE ) * ( 0.25 * ( 1.0 / 8.0 ) ), 1.0 / 128.0 );
  float rcpDirMin = 1.0 / ( min( abs( dir.x ), abs( dir.y ) ) + dirReduce );
  dir = clamp( dir * rcpDirMin, vec2( -8.0 ), vec2( 8.0 ) ) * px;
  vec4 a = 0.5 * ( texture( tDiffuse, vUv + dir * ( 1.0 / 3.0 - 0.5 ) ) + texture( tDiffuse, vUv + dir * ( 2.0 / 3.0 - 0.5 ) ) );
  vec4 b = a * 0.5 + 0.25 * ( texture( tDiffuse, vUv + dir * -0.5 ) + texture( tDiffuse, vUv + dir * 0.5 ) );
  float lB = luma( b );
  vec4 c = ( lB < lMin || lB > lMax ) ? a : b;
  // Below three's FXAA thresholds (absolute and relative contrast) the pixel is kept as it is.
  gl_FragColor = ( lMax - lMin < max( 0.0312, lMax * 0.063 ) ) ? cM : c;
}`;

/** The edge pass's fragment shader: FXAA's console variant, with the figure's outline seen as an edge. */
export function outlineFXAA(): string {
  return EDGE_PASS;
}

/** A target the scene is drawn into with the canvas's colours: three tone-maps and encodes sRGB
 *  only when drawing to the canvas or to an XR target (in its texture's colour space), so the
 *  target says it is one; its storage is plain RGBA8, so FXAA reads the encoded values as the
 *  copy of the canvas gave them (an sRGB texture would be decoded on reading). */
function canvasLikeTarget(width: number, height: number): WebGLRenderTarget {
  const target = new WebGLRenderTarget(width, height, { minFilter: LinearFilter, magFilter: LinearFilter, depthBuffer: true });
  (target as unknown as { isXRRenderTarget: boolean }).isXRRenderTarget = true;
  target.texture.colorSpace = SRGBColorSpace;
  target.texture.internalFormat = 'RGBA8';
  return target;
}

export function smoothEdges(renderer: WebGLRenderer, scene: Scene, camera: Camera): SmoothEdges {
  const material = new ShaderMaterial({
    name: 'FXAA',
    uniforms: UniformsUtils.clone(FXAAShader.uniforms),
    vertexShader: FXAAShader.vertexShader,
    fragmentShader: outlineFXAA(),
    blending: NoBlending,
    depthTest: false,
    depthWrite: false,
  });
  const quad = new FullScreenQuad(material);
  const size = new Vector2();
  let target: WebGLRenderTarget | null = null;

  const setSize = () => {
    renderer.getDrawingBufferSize(size);
    target?.dispose();
    target = canvasLikeTarget(size.x, size.y);
    material.uniforms.tDiffuse!.value = target.texture;
    (material.uniforms.resolution!.value as Vector2).set(1 / size.x, 1 / size.y);
  };

  // three's scissor on the canvas is in CSS pixels, times the pixel ratio and rounded: back to
  // whole drawing-buffer pixels. A target's own scissor is in its pixels.
  const scissor = (r: BufferRect) => {
    const k = renderer.getPixelRatio();
    renderer.setScissor(r.x / k, r.y / k, r.w / k, r.h / k);
  };
  const fxaa = () => {
    // The quad covers every pixel (of the scissor); the clear marks the canvas's frame (colour only:
    // the canvas's depth is not used).
    const autoClear = renderer.autoClear;
    renderer.autoClear = false;
    renderer.clear(true, false, false);
    quad.render(renderer);
    renderer.autoClear = autoClear;
  };

  return {
    render(changed) {
      if (!target) setSize();
      const t = target!;
      // Outside `changed` the target still holds the last whole frame: FXAA reads it unchanged.
      if (changed) t.scissor.set(changed.x, changed.y, changed.w, changed.h);
      t.scissorTest = !!changed;
      renderer.setRenderTarget(t);
      renderer.render(scene, camera);
      renderer.setRenderTarget(null);
      if (!changed) {
        fxaa();
        return;
      }
      const x = Math.max(0, changed.x - FXAA_REACH),
        y = Math.max(0, changed.y - FXAA_REACH);
      renderer.setScissorTest(true);
      scissor({
        x,
        y,
        w: Math.min(size.x, changed.x + changed.w + FXAA_REACH) - x,
        h: Math.min(size.y, changed.y + changed.h + FXAA_REACH) - y,
      });
      fxaa();
      renderer.setScissorTest(false);
    },
    setSize,
    dispose() {
      target?.dispose();
      material.dispose();
      quad.dispose();
    },
  };
}
