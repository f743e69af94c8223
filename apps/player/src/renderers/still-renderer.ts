// The fallback for 3D avatars where the browser cannot draw WebGL (headless Firefox, a blocked
// GPU): the avatar's preview picture on a canvas, breathing a little, with a row of sound bars
// under it that follow the mouth while the avatar speaks, so the stage is never dead. The stage
// shows the renderer's notice saying why the 3D face is not there.
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { wobble, type AvatarRenderer, type FaceState } from './renderer';

const OPENNESS: Record<string, number> = {
  sil: 0,
  PP: 0.15,
  FF: 0.3,
  TH: 0.4,
  DD: 0.45,
  kk: 0.5,
  CH: 0.55,
  SS: 0.35,
  nn: 0.4,
  RR: 0.5,
  aa: 1,
  E: 0.8,
  I: 0.6,
  O: 0.9,
  U: 0.7,
};

export async function createStillRenderer(host: HTMLElement, avatar: PublicAvatar, notice: string): Promise<AvatarRenderer> {
  const img = new Image();
  img.src = avatar.appearance.previewURL;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.className = 'face-canvas';
  host.appendChild(canvas);
  const ctx = canvas.getContext('2d')!;
  let width = 1,
    height = 1,
    dpr = 1;
  let level = 0;
  return {
    profile: 'image',
    notice,
    resize(w, h) {
      dpr = Math.min(2, window.devicePixelRatio || 1);
      width = Math.max(1, w);
      height = Math.max(1, h);
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
    },
    frame(now, state: FaceState) {
      const t = now / 1000;
      const target = state.speaking ? (OPENNESS[state.viseme] ?? 0.5) : 0;
      level += (target - level) * 0.35;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      const bars = 0.1 * canvas.height;
      const scale = Math.min(canvas.width / img.width, canvas.height / img.height) * (1 + Math.sin(t * 1.55) * 0.004);
      const w = img.width * scale,
        h = img.height * scale;
      const x = (canvas.width - w) / 2,
        y = canvas.height - h;
      ctx.drawImage(img, x, y, w, h);
      // Sound bars over the chest (clear of the captions and controls below): flat and faint at
      // rest, moving with the mouth while speaking.
      const mid = canvas.height * 0.68;
      const n = 9,
        gap = 6 * dpr,
        bw = 8 * dpr;
      const left = canvas.width / 2 - (n * bw + (n - 1) * gap) / 2;
      ctx.fillStyle = state.speaking ? '#3b82f6' : 'rgba(59,130,246,0.35)';
      for (let i = 0; i < n; i++) {
        const shape = 0.55 + 0.45 * Math.abs(wobble(t * 6, i + 1, 1.3, 2.9));
        const bh = Math.max(3 * dpr, level * shape * bars * 0.8);
        ctx.fillRect(left + i * (bw + gap), mid - bh / 2, bw, bh);
      }
    },
    dispose() {
      canvas.remove();
    },
  };
}
