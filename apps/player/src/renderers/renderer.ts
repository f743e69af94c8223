// What the stage asks of a face renderer, whatever draws it (canvas 2D or three.js).
import type { Viseme } from '@parla/shared/visemes';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { RenderMode, RenderProfile } from './frame-budget';

export interface FaceState {
  viseme: Viseme;
  speaking: boolean;
}

/** A rectangle in CSS pixels relative to the renderer's host element. */
export interface FaceBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface AvatarRenderer {
  frame(nowMs: number, state: FaceState): void;
  /** Where the face (brows to chin) is drawn now, so overlays can keep clear of it. */
  faceBox?(): FaceBox | null;
  /** Where the eyes look now, relative to the head (radians), for renderers with turning eyes. */
  gaze?(): { yaw: number; pitch: number } | null;
  resize(width: number, height: number): void;
  dispose(): void;
  /** Set when this is a fallback for the avatar's own renderer: why, for the end user. */
  notice?: string;
  /** How it draws, which sets how often the stage redraws it (frame-budget.ts). */
  profile: RenderProfile;
  /** How a 3D face's edges are smoothed: multisampling (GPU) or FXAA (software WebGL). */
  edges?: 'msaa' | 'fxaa';
}

export const NO_WEBGL_NOTICE = 'This browser cannot draw 3D (WebGL is turned off), so the avatar is shown as a picture.';

/** Whether the browser can draw WebGL at all (headless Firefox cannot). */
export function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

/** Picks and loads the renderer for the avatar's type; three.js is fetched only for 3D types,
 *  and only where WebGL works (else the avatar's viseme atlas, or the still picture when it has
 *  none, with a notice). */
export async function createRenderer(host: HTMLElement, avatar: PublicAvatar, mode: RenderMode = 'auto'): Promise<AvatarRenderer> {
  if (avatar.dhType === 'image') {
    const { createImageRenderer } = await import('./image-renderer');
    return createImageRenderer(host, avatar);
  }
  if (!hasWebGL()) {
    // The 3D avatar's viseme atlas (decision 124): a picture whose lips still move.
    if (avatar.appearance.atlasURL) {
      const { createImageRenderer } = await import('./image-renderer');
      return { ...(await createImageRenderer(host, avatar, avatar.appearance.atlasURL)), notice: NO_WEBGL_NOTICE };
    }
    const { createStillRenderer } = await import('./still-renderer');
    return createStillRenderer(host, avatar, NO_WEBGL_NOTICE);
  }
  const { createThreeRenderer } = await import('./three-renderer');
  return createThreeRenderer(host, avatar, mode);
}

/** Small, smooth, never-repeating-looking motion: a sum of slow sines. */
export function wobble(t: number, seed: number, ...freqs: number[]): number {
  let v = 0;
  freqs.forEach((f, i) => (v += Math.sin(t * f + seed * (i + 1) * 1.7) / (i + 1)));
  return v / freqs.length;
}

/** Natural blinking: every 2.5–6 s, sometimes twice. Returns 0 (open) … 1 (closed). */
export class Blinker {
  private next = 0;
  private start = -1;

  constructor(private readonly random: () => number = Math.random) {}

  value(nowMs: number): number {
    if (this.next === 0) this.next = nowMs + 1200 + this.random() * 2500;
    if (this.start < 0 && nowMs >= this.next) {
      this.start = nowMs;
      this.next = nowMs + (this.random() < 0.15 ? 350 : 2500 + this.random() * 3500);
    }
    if (this.start < 0) return 0;
    const k = (nowMs - this.start) / 170;
    if (k >= 1) {
      this.start = -1;
      return 0;
    }
    return Math.sin(k * Math.PI);
  }
}
