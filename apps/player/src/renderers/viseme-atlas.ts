// A talking picture of a 3D avatar, for browsers that cannot draw WebGL (issue 36, item 5;
// decision 124): the model drawn once at rest and once per mouth shape and blink, from one fixed
// camera, packed into the 2D avatars' atlas format (decision 102), so the image renderer moves
// its lips without WebGL. Frames are exact crops of renders from the same camera: outside the
// region the morphs change, every pixel is identical, so a frame drawn over the picture has no
// seam. The picture is `rigid` (one rendering: the head does not turn apart from the body).
// Runs in a browser with WebGL: the catalogue generator's Chromium for the catalogue avatars
// (scripts/catalogue/atlas3d.ts); an uploaded model's atlas is made by the same function in the
// customer's browser (own-atlas.ts, decision 127), its face set through the model's rig.
import { ACESFilmicToneMapping, Box3, PerspectiveCamera, Scene, SRGBColorSpace, WebGLRenderer, type Mesh, type Object3D } from 'three';
import type { ImageAvatarModel, ImageAvatarSprite, LightingPreset } from '@parla/shared/schemas/catalogue';
import { VISEMES, visemeMorphName, type Viseme } from '@parla/shared/visemes';
import { addLights } from './scene-lights';
import type { Shot } from './framing';

export interface AtlasOptions {
  /** The picture's size in pixels (the avatar space of the manifest). */
  width: number;
  height: number;
  lighting: LightingPreset;
  /** Morph weights as the player speaks and rests (three-renderer.ts). */
  speakingSmile?: number;
  restingSmile?: number;
  /** Sets the face: an uploaded model's rig (own-rig.ts); by default the player's morph names. */
  pose?: FacePose;
  /** Where the camera stands (an uploaded model's head shot); by default the catalogue's shot. */
  shot?: Shot;
}

/** One viseme fully on (or none), the blink and the smile (0…1), every other target at rest. */
export type FacePose = (viseme: Viseme | null, blink: number, smile: number) => void;
type Rect = { x: number; y: number; w: number; h: number };

/** Renders `root` (a loaded glTF scene) in every state and packs the atlas (WebP with alpha). */
export async function renderVisemeAtlas(
  root: Object3D,
  o: AtlasOptions,
): Promise<{ manifest: Omit<ImageAvatarModel, 'atlas'>; atlas: Blob }> {
  const { width: W, height: H } = o;
  const renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(W, H, false);
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.toneMappingExposure = o.lighting.exposure;
  const scene = new Scene();
  addLights(scene, o.lighting, false);
  scene.add(root);
  // The player's head-and-shoulders shot (three-renderer.ts), a little wider for a portrait.
  const camera = new PerspectiveCamera(28, W / H, 0.05, 50);
  if (o.shot) {
    camera.position.set(...o.shot.position);
    camera.lookAt(...o.shot.target);
  } else {
    const top = new Box3().setFromObject(root).max.y;
    camera.position.set(0, top - 0.22, 1.75);
    camera.lookAt(0, top - 0.36, 0);
  }
  const pose = o.pose ?? morphPose(root);
  const shot = (viseme: Viseme | null, blink: number, smile: number): ImageData => {
    pose(viseme, blink, smile);
    renderer.render(scene, camera);
    const c = document.createElement('canvas');
    c.width = W;
    c.height = H;
    const g = c.getContext('2d')!;
    g.drawImage(renderer.domElement, 0, 0);
    return g.getImageData(0, 0, W, H);
  };
  const speaking = o.speakingSmile ?? 0.12;
  const base = shot(null, 0, speaking);
  const mouths = new Map<Viseme, ImageData>(VISEMES.map((v) => [v, shot(v, 0, speaking)]));
  const smile = shot(null, 0, o.restingSmile ?? 0.35);
  const half = shot(null, 0.5, speaking);
  const closed = shot(null, 1, speaking);
  renderer.dispose();
  scene.remove(root);

  const mouthRect = changed(base, [...mouths.values(), smile]);
  const eyeRect = changed(base, [half, closed]);

  // Shelf packing: the picture on top, then the frames in rows below it.
  const frames: { img: ImageData; r: Rect }[] = [
    ...VISEMES.map((v) => ({ img: mouths.get(v)!, r: mouthRect })),
    { img: smile, r: mouthRect },
    { img: base, r: eyeRect },
    { img: half, r: eyeRect },
    { img: closed, r: eyeRect },
  ];
  const sprites: ImageAvatarSprite[] = [];
  let x = 0,
    y = H + 1,
    row = 0;
  for (const f of frames) {
    if (x + f.r.w > W) [x, y, row] = [0, y + row, 0];
    sprites.push({ sx: x, sy: y, w: f.r.w, h: f.r.h, x: f.r.x, y: f.r.y });
    x += f.r.w;
    row = Math.max(row, f.r.h);
  }
  const atlas = document.createElement('canvas');
  atlas.width = W;
  atlas.height = y + row;
  const g = atlas.getContext('2d')!;
  g.putImageData(base, 0, 0);
  frames.forEach((f, i) => g.putImageData(f.img, sprites[i]!.sx - f.r.x, sprites[i]!.sy - f.r.y, f.r.x, f.r.y, f.r.w, f.r.h));
  // Row H stays transparent: a 1 × 1 sprite of nothing, for the layers a rigid picture lacks.
  const none: ImageAvatarSprite = { sx: 0, sy: H, w: 1, h: 1, x: eyeRect.x, y: Math.max(0, eyeRect.y - eyeRect.h) };
  const at = (i: number) => sprites[i]!;
  const n = VISEMES.length;
  const manifest: Omit<ImageAvatarModel, 'atlas'> = {
    format: 'parla-image-avatar',
    version: 1,
    rigid: true,
    width: W,
    height: H,
    background: '',
    layers: { back: null, body: { sx: 0, sy: 0, w: W, h: H, x: 0, y: 0 }, head: none },
    headPivot: [W / 2, eyeRect.y + eyeRect.h * 3],
    mouth: Object.fromEntries(VISEMES.map((v, i) => [v, at(i)])) as ImageAvatarModel['mouth'],
    smile: at(n),
    eyes: { open: at(n + 1), half: at(n + 2), closed: at(n + 3) },
    brows: { neutral: none, raised: none },
  };
  const blob = await new Promise<Blob>((ok, fail) => atlas.toBlob((b) => (b ? ok(b) : fail(new Error('no WebP'))), 'image/webp', 0.9));
  return { manifest, atlas: blob };
}

/** The catalogue's face: morph targets named as the player's (`viseme_*`, `blink`, `smile`). */
function morphPose(root: Object3D): FacePose {
  const meshes: Mesh[] = [];
  root.traverse((m) => {
    const mesh = m as Mesh;
    if (mesh.isMesh && mesh.morphTargetDictionary && mesh.morphTargetInfluences) meshes.push(mesh);
  });
  return (viseme, blink, smile) => {
    const morphs: Record<string, number> = { smile };
    if (viseme && viseme !== 'sil') morphs[visemeMorphName(viseme)] = 1;
    if (blink > 0) morphs.blink = blink;
    for (const m of meshes) {
      m.morphTargetInfluences!.fill(0);
      for (const [name, v] of Object.entries(morphs)) {
        const i = m.morphTargetDictionary![name];
        if (i !== undefined) m.morphTargetInfluences![i] = v;
      }
    }
  };
}

/** The box of the pixels that differ from `base` in any of `others`, with a margin, inside the picture. */
function changed(base: ImageData, others: ImageData[]): Rect {
  const { width: W, height: H } = base;
  let x0 = W,
    y0 = H,
    x1 = -1,
    y1 = -1;
  for (const img of others)
    for (let i = 0; i < base.data.length; i += 4) {
      const d =
        Math.abs(img.data[i]! - base.data[i]!) +
        Math.abs(img.data[i + 1]! - base.data[i + 1]!) +
        Math.abs(img.data[i + 2]! - base.data[i + 2]!) +
        Math.abs(img.data[i + 3]! - base.data[i + 3]!);
      if (d <= 6) continue;
      const p = i / 4;
      const [x, y] = [p % W, Math.floor(p / W)];
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  if (x1 < 0) return { x: Math.floor(W / 2), y: Math.floor(H / 2), w: 1, h: 1 };
  const m = 3;
  const x = Math.max(0, x0 - m),
    y = Math.max(0, y0 - m);
  return { x, y, w: Math.min(W, x1 + m + 1) - x, h: Math.min(H, y1 + m + 1) - y };
}
