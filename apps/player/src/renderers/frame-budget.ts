// How often the stage redraws the face (decision 121). A frame the eye cannot tell from the last
// one is CPU the visitor's machine pays for: the 2D portraits move slowly (idle sway, breathing,
// a mouth sprite per viseme), so 30 frames a second look the same as 60; a 3D face on a GPU draws
// every display frame. A 3D face in software WebGL (no GPU: SwiftShader, llvmpipe) used to keep
// two cores busy at 4–8 frames a second; its light profile draws cheaper frames (FXAA instead of
// multisampling, no shadow map, plain materials, only the figure's region at a capped resolution:
// decision 128) at most 24 a second while speaking (the lips read as film does; issue 36 asks 24)
// and 8 while idle.
export type RenderMode = 'auto' | 'full' | 'light';
export type RenderProfile = 'image' | 'gpu' | 'software';

const FPS: Record<RenderProfile, { speaking: number; idle: number }> = {
  image: { speaking: 30, idle: 30 },
  gpu: { speaking: Infinity, idle: Infinity },
  software: { speaking: 24, idle: 8 },
};

/** While speaking, a 3D face in software WebGL redraws its whole figure (the head's sway, the
 *  breathing, the eyes and smile) when the figure has moved: a corner of the mouth's box, or a
 *  point on any of its parts (the shoulders breathing, the arms, a headscarf's outline: figure-
 *  drift.ts), by `WHOLE_MOVE` drawing-buffer pixels since the last whole frame; at once when a
 *  blink has moved the lids (three-renderer.ts); and at least every `WHOLE_AFTER` ms, for what no
 *  point follows (the eyes' turns, the smile easing). The frames between show the mouth alone,
 *  most of them as a kept picture of it (mouth-frames.ts, mouth-cache.ts; decision 128's
 *  amendments), and cost a quarter (a kept picture) to two thirds (a mouth drawn in WebGL) of a
 *  whole one. At every fourth frame (the rule before the
 *  drift, 6 a second) the box's corners stepped by 0.37–0.44 pixels between whole frames (median)
 *  and up to 1.04; at every sixth by 0.49–0.64 and up to 2.2 (Bench 14's page, 2026-12-01;
 *  amendments "whole frames when the figure moved" and "a calmer head in software WebGL"). */
export const WHOLE_MOVE = 0.75;
export const WHOLE_AFTER = 1000;

/** The least time between two drawn frames, in ms (0: every animation frame, as `render=full` asks). */
export function frameInterval(profile: RenderProfile, speaking: boolean, mode: RenderMode = 'auto'): number {
  if (mode === 'full') return 0;
  const fps = FPS[profile][speaking ? 'speaking' : 'idle'];
  return Number.isFinite(fps) ? 1000 / fps : 0;
}

/** Paces drawing on the animation frames: a frame is due when its time has nearly come (a
 *  quarter of a display frame early is close enough), and the times step by the interval, so 8
 *  a second on a 60 Hz display alternate seven and eight display frames rather than drop to 7.5.
 *  A frame late by less than two intervals keeps the cadence, so the next may come sooner and the
 *  rate holds (Bench 14 read 23.98 a second when a late frame restarted it); a page that fell
 *  further behind (a hidden tab, a long pause) starts again from now, without a burst. */
export class FramePacer {
  private next = -Infinity;

  due(now: number, interval: number): boolean {
    if (interval <= 0) return true;
    if (now < this.next - EARLY) return false;
    this.next = now - this.next >= CATCH_UP * interval ? now + interval : this.next + interval;
    return true;
  }

  /** How long until the next frame is due, in ms (0: it is due now). */
  untilDue(now: number): number {
    return Math.max(0, this.next - EARLY - now);
  }

  /** The next frame is due at once (the face started or stopped speaking: a new rate). */
  restart(): void {
    this.next = -Infinity;
  }
}

/** How early a frame may be drawn, in ms (a quarter of a 60 Hz display frame). */
const EARLY = 4;
/** A frame later than this many intervals starts the cadence again from now (a frame is lost);
 *  a frame less late keeps it, and the next follows at the next animation frame. A whole figure
 *  drawn in software WebGL while the machine is busy can hold the page for more than an interval
 *  (Bench 14 read 23.99 frames a second: one frame lost in ten seconds). */
const CATCH_UP = 2;

const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** Whether this browser's WebGL is drawn by the CPU: it reports a major performance caveat
 *  (Chromium's SwiftShader), or its renderer's name says so (Mesa's llvmpipe under WebKitGTK). */
export function softwareWebGL(): boolean {
  const probe = (attributes?: WebGLContextAttributes) =>
    (document.createElement('canvas').getContext('webgl2', attributes) ??
      document.createElement('canvas').getContext('webgl', attributes)) as WebGLRenderingContext | null;
  const release = (gl: WebGLRenderingContext | null) => gl?.getExtension('WEBGL_lose_context')?.loseContext();
  try {
    const strict = probe({ failIfMajorPerformanceCaveat: true });
    release(strict);
    if (!strict) return true;
    const gl = probe();
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const name = gl ? String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '') : '';
    release(gl);
    return SOFTWARE_RENDERER.test(name);
  } catch {
    return false;
  }
}

/** The profile a 3D face draws with: the page's `render` parameter, else what the browser has. */
export function threeProfile(mode: RenderMode, isSoftware: () => boolean = softwareWebGL): RenderProfile {
  if (mode === 'full') return 'gpu';
  if (mode === 'light') return 'software';
  return isSoftware() ? 'software' : 'gpu';
}

export function readRenderMode(value: string | null | undefined): RenderMode {
  return value === 'full' || value === 'light' ? value : 'auto';
}
