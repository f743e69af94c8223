// What an uploaded file really is, from its first bytes (never from the name or the declared
// type), and which kinds each upload field accepts.
import type { UploadKind } from '@parla/shared/limits';
import type { UploadField } from '@parla/shared/schemas/avatar';

export interface MediaType {
  kind: UploadKind;
  ext: string;
  contentType: string;
}

/** Bytes needed to tell every accepted type apart. */
export const SNIFF_BYTES = 16;

const ascii = (head: Buffer, start: number, text: string) => head.subarray(start, start + text.length).toString('latin1') === text;

/** ISO-BMFF brands that are still images, not videos (HEIC, AVIF). */
const IMAGE_BRANDS = ['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis'];

export function sniff(head: Buffer): MediaType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { kind: 'image', ext: 'png', contentType: 'image/png' };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { kind: 'image', ext: 'jpg', contentType: 'image/jpeg' };
  }
  if (head.length >= 12 && ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) {
    return { kind: 'image', ext: 'webp', contentType: 'image/webp' };
  }
  if (head.length >= 12 && ascii(head, 4, 'ftyp')) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (IMAGE_BRANDS.includes(brand)) return null;
    return { kind: 'video', ext: 'mp4', contentType: 'video/mp4' };
  }
  if (head.length >= 4 && head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) {
    return { kind: 'video', ext: 'webm', contentType: 'video/webm' };
  }
  if (head.length >= 8 && ascii(head, 0, 'glTF') && head.readUInt32LE(4) === 2) {
    return { kind: 'glb', ext: 'glb', contentType: 'model/gltf-binary' };
  }
  return null;
}

/** Which kinds each multipart file field accepts. */
export const FIELD_KINDS: Record<UploadField, readonly UploadKind[]> = {
  backgroundImage: ['image', 'video'],
  scene: ['glb'],
  avatarPhoto: ['image'],
  avatarModel: ['glb'],
};

export const FIELD_TYPE_MESSAGES: Record<UploadField, string> = {
  backgroundImage: 'The background must be a PNG, JPEG or WebP image, or an MP4 or WebM video.',
  scene: 'The 3D environment must be a binary glTF (.glb) file.',
  avatarPhoto: 'The avatar photo must be a PNG, JPEG or WebP image.',
  avatarModel: 'The 3D avatar must be a binary glTF (.glb) or VRM (.vrm) file.',
};

/** The media list a field's files belong to. */
export const FIELD_LIST: Record<UploadField, 'backgroundImage' | 'scene' | 'photo' | 'model'> = {
  backgroundImage: 'backgroundImage',
  scene: 'scene',
  avatarPhoto: 'photo',
  avatarModel: 'model',
};
