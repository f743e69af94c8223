// The viseme atlas of a customer's own 3D model (issue 36 items 5 and 6, decision 127): rendered
// in the customer's browser by the player's renderVisemeAtlas, uploaded with
// POST /api/avatar/{id}/own_model_atlas (multipart: the field `manifest`, the files `atlas` and
// `still`), checked and stored by the server with the avatar.
import type { z } from 'zod';
import { MB } from '../limits';
import { imageAvatarModel } from './catalogue';

const KB = 1024;

/** Caps checked while the parts stream (one byte over: 413, nothing stored) and on the images'
 *  headers. The catalogue's atlases are 33–46 KB at 480 × 600; an uploaded model's textures may
 *  be busier, so the atlas may be twenty times that, never more. */
export const OWN_ATLAS_LIMITS = {
  atlasBytes: 1 * MB,
  stillBytes: 256 * KB,
  manifestBytes: 64 * KB,
  /** The picture's size (the atlas is as wide as the picture; the frames are packed below it). */
  maxWidth: 1024,
  maxAtlasHeight: 4096,
  maxStillSide: 1024,
} as const;

/** The manifest the browser sends: the image avatar format without its `atlas` name (the server
 *  names the stored file). */
export const ownModelAtlasManifest = imageAvatarModel.omit({ atlas: true });
export type OwnModelAtlasManifest = z.infer<typeof ownModelAtlasManifest>;

export const OWN_ATLAS_TEXTS = {
  noModel: 'This avatar wears no uploaded 3D avatar: a viseme atlas is made from an uploaded model.',
  changed: 'The 3D avatar was replaced while its atlas was made: the new one makes its own.',
  malformed: 'Send multipart/form-data with the field manifest (JSON), then the files atlas and still.',
  manifest: 'The atlas manifest is not valid JSON in the image avatar format.',
  image: (part: string) => `The ${part} must be a WebP or PNG image.`,
  tooLarge: (part: string, bytes: number) => `The ${part} exceeds ${Math.round(bytes / KB)} KB.`,
  dimensions: (part: string, w: number, h: number) => `The ${part} is ${w} × ${h} pixels: too large.`,
  mismatch: (why: string) => `The atlas does not match its manifest: ${why}.`,
} as const;

export interface OwnModelAtlasResponse {
  status: 'OK';
  manifestURL: string;
  stillURL: string;
  atlasBytes: number;
}
