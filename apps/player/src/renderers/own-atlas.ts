// An uploaded model's viseme atlas and card still, made in the customer's browser (issue 36
// items 5 and 6, decision 127): the model loaded as the player loads it, its face set through
// its own rig (own-rig.ts: the real mouth shapes the model check mapped), framed from its head
// bone as the player frames it, drawn by renderVisemeAtlas. Fetched only by the editor's preview.
import { Vector3 } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import type { ImageAvatarModel } from '@parla/shared/schemas/catalogue';
import { headShot } from './framing';
import { bindOwnRig } from './own-rig';
import { STUDIO } from './scene-lights';
import { renderVisemeAtlas } from './viseme-atlas';

/** The catalogue atlases' portrait (scripts/catalogue/atlas3d.ts). */
const WIDTH = 480;
const HEIGHT = 600;
/** The face's share of the portrait's height, as the player's upper-body stage (three-renderer.ts). */
const BUST_SHARE = 0.28;
/** The card's still: half the portrait, sharp at the card's 64 px on a high-density screen. */
const STILL_SCALE = 0.5;

export interface OwnAtlas {
  manifest: Omit<ImageAvatarModel, 'atlas'>;
  atlas: Blob;
  still: Blob;
  /** Milliseconds from loading the model to the packed atlas and still. */
  ms: number;
}

export async function renderOwnAtlas(avatar: PublicAvatar): Promise<OwnAtlas> {
  const rigInfo = avatar.appearance.rig;
  if (!rigInfo) throw new Error('not an uploaded model');
  const started = performance.now();
  const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).loadAsync(avatar.appearance.modelURL);
  const rig = bindOwnRig(gltf, rigInfo);
  if (rigInfo.facesBack) gltf.scene.rotation.y += Math.PI;
  gltf.scene.updateMatrixWorld(true);
  const head = rig.headBox();
  const shot = headShot(head, new Vector3(0, head.max.y, 10), new Vector3(0, head.max.y, 0), 28, BUST_SHARE);
  const { manifest, atlas } = await renderVisemeAtlas(gltf.scene, {
    width: WIDTH,
    height: HEIGHT,
    // One light for every atlas, as the catalogue's (decision 124): the avatar's preset may change.
    lighting: STUDIO,
    shot,
    pose: (viseme, blink, smile) => rig.apply(viseme && viseme !== 'sil' ? { [viseme]: 1 } : {}, blink, smile),
  });
  const still = await stillOf(atlas);
  return { manifest, atlas, still, ms: performance.now() - started };
}

/** The atlas's picture (its top WIDTH × HEIGHT: mouth closed, eyes open), scaled for the card. */
async function stillOf(atlas: Blob): Promise<Blob> {
  const image = await createImageBitmap(atlas);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(WIDTH * STILL_SCALE);
  canvas.height = Math.round(HEIGHT * STILL_SCALE);
  const g = canvas.getContext('2d')!;
  g.imageSmoothingQuality = 'high';
  g.drawImage(image, 0, 0, WIDTH, HEIGHT, 0, 0, canvas.width, canvas.height);
  image.close();
  return new Promise<Blob>((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error('no WebP'))), 'image/webp', 0.9));
}
