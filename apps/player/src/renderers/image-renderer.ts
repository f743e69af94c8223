// Image avatars on a canvas: the body breathes, the head turns and nods a little around the
// neck, the eyes blink, the brows lift now and then while speaking, and the mouth shows the
// current viseme's frame (one frame at a time, never two blended).
import type { ImageAvatarModel, ImageAvatarSprite } from '@parla/shared/schemas/catalogue';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { Blinker, wobble, type AvatarRenderer, type FaceBox, type FaceState } from './renderer';

async function loadImage(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
  await img.decode();
  return img;
}

/** `manifestURL`: the avatar's own manifest, or a 3D avatar's viseme atlas (viseme-atlas.ts). */
export async function createImageRenderer(
  host: HTMLElement,
  avatar: PublicAvatar,
  manifestURL = avatar.appearance.modelURL,
): Promise<AvatarRenderer> {
  const res = await fetch(manifestURL);
  if (!res.ok) throw new Error(`appearance ${res.status}`);
  const model = (await res.json()) as ImageAvatarModel;
  const atlas = await loadImage(new URL(model.atlas, new URL(manifestURL, location.href)).href);

  const canvas = document.createElement('canvas');
  canvas.className = 'face-canvas';
  host.appendChild(canvas);
  const ctx = canvas.getContext('2d')!;
  const blinker = new Blinker();
  let width = 1,
    height = 1,
    dpr = 1;
  let browsUntil = 0,
    nextBrows = 0;
  let wasSpeaking = false;

  // The face in avatar space: brows to the lowest mouth frame, eye to eye; padded for head motion.
  const features = [model.brows.neutral, model.brows.raised, model.eyes.open, model.smile, ...Object.values(model.mouth)];
  const fx0 = Math.min(...features.map((f) => f.x));
  const fy0 = Math.min(...features.map((f) => f.y));
  const fx1 = Math.max(...features.map((f) => f.x + f.w));
  const fy1 = Math.max(...features.map((f) => f.y + f.h));
  const pad = 0.08 * (fy1 - fy0);
  const faceBox = (): FaceBox => {
    const scale = Math.min(width / model.width, height / model.height);
    const ox = (width - model.width * scale) / 2;
    const oy = height - model.height * scale;
    return { x: ox + (fx0 - pad) * scale, y: oy + (fy0 - pad) * scale, w: (fx1 - fx0 + 2 * pad) * scale, h: (fy1 - fy0 + 2 * pad) * scale };
  };

  const draw = (s: ImageAvatarSprite, alpha = 1) => {
    if (alpha <= 0) return;
    ctx.globalAlpha = alpha;
    ctx.drawImage(atlas, s.sx, s.sy, s.w, s.h, s.x, s.y, s.w, s.h);
    ctx.globalAlpha = 1;
  };

  return {
    profile: 'image',
    faceBox,
    resize(w, h) {
      dpr = Math.min(2, window.devicePixelRatio || 1);
      width = Math.max(1, w);
      height = Math.max(1, h);
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
    },
    frame(now, state: FaceState) {
      const t = now / 1000;
      if (state.speaking && !wasSpeaking) browsUntil = now + 450;
      wasSpeaking = state.speaking;
      if (state.speaking && now > nextBrows) {
        if (Math.random() < 0.35) browsUntil = now + 300 + Math.random() * 300;
        nextBrows = now + 1800 + Math.random() * 1500;
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      // Fit the portrait (contain), standing on the bottom edge.
      const scale = Math.min(canvas.width / model.width, canvas.height / model.height);
      const ox = (canvas.width - model.width * scale) / 2;
      const oy = canvas.height - model.height * scale;
      ctx.setTransform(scale, 0, 0, scale, ox, oy);
      ctx.imageSmoothingQuality = 'high';

      const talk = state.speaking ? 1.6 : 1;
      const angle = (wobble(t, 1, 0.45, 1.1, 0.23) * 0.022 + (state.speaking ? wobble(t, 4, 2.6, 3.7) * 0.01 : 0)) * talk;
      const nod = wobble(t, 2, 0.6, 1.7) * 3 * talk;
      const sway = wobble(t, 3, 0.35, 0.8) * 2.5;
      const breath = 1 + Math.sin(t * 1.55) * 0.0035;
      const [px, py] = model.headPivot;
      const bodyTransform = () => {
        ctx.translate(model.width / 2, model.height);
        ctx.scale(1, breath);
        ctx.translate(-model.width / 2, -model.height);
      };
      // A rigid picture (a 3D avatar's atlas) is one rendering: its frames breathe with the body.
      const headTransform = model.rigid
        ? bodyTransform
        : () => {
            ctx.translate(px + sway, py + nod + (1 - breath) * 600);
            ctx.rotate(angle);
            ctx.translate(-px, -py);
          };

      if (model.layers.back) {
        ctx.save();
        headTransform();
        draw(model.layers.back);
        ctx.restore();
      }
      ctx.save();
      bodyTransform();
      draw(model.layers.body);
      ctx.restore();

      ctx.save();
      headTransform();
      draw(model.layers.head);
      const blink = blinker.value(now);
      draw(blink > 0.75 ? model.eyes.closed : blink > 0.2 ? model.eyes.half : model.eyes.open);
      draw(now < browsUntil ? model.brows.raised : model.brows.neutral);
      // One mouth at a time, fully opaque: a cross-fade of two mouth frames (or of a frame over
      // the head's own mouth) shows a ghosted double mouth (issue 18, item 12).
      draw(state.viseme === 'sil' && !state.speaking ? model.smile : model.mouth[state.viseme]);
      ctx.restore();
    },
    dispose() {
      canvas.remove();
    },
  };
}
