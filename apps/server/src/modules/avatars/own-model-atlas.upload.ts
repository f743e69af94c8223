// Reads POST /api/avatar/{id}/own_model_atlas (decision 127): the field `manifest` (JSON), then
// the files `atlas` and `still`, each streamed into the file store under its cap (one byte over
// stops it: 413, nothing stored), sniffed as WebP or PNG from its first bytes and sized from its
// header; the manifest must be the image avatar format and fit the atlas it came with. Nothing
// read here is recorded: the service records the staged files in one transaction, or discards them.
import { open } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { imageSize } from 'image-size';
import type { ImageAvatarSprite } from '@parla/shared/schemas/catalogue';
import {
  OWN_ATLAS_LIMITS as L,
  OWN_ATLAS_TEXTS as T,
  ownModelAtlasManifest,
  type OwnModelAtlasManifest,
} from '@parla/shared/schemas/own-model-atlas';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import type { StagedFile } from '../../lib/file-store';
import { multipartClientError, stallGuarded } from '../../lib/multipart';
import { sniff, SNIFF_BYTES, type MediaType } from './avatars.media';

type Part = 'atlas' | 'still';
const CAPS: Record<Part, number> = { atlas: L.atlasBytes, still: L.stillBytes };

export interface StagedImage {
  file: StagedFile;
  type: MediaType;
  width: number;
  height: number;
}

export interface AtlasUpload {
  manifest: OwnModelAtlasManifest;
  atlas: StagedImage;
  still: StagedImage;
}

const malformed = () => AppError.invalid(T.malformed);

/** The image's size from its header (image-size, the server's reader of picture headers). */
async function dimensions(path: string, size: number): Promise<{ width: number; height: number } | null> {
  const fd = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, 64 * 1024));
    await fd.read(buf, 0, buf.length, 0);
    const d = imageSize(buf);
    return d.width && d.height ? { width: d.width, height: d.height } : null;
  } catch {
    return null;
  } finally {
    await fd.close();
  }
}

async function stageImage(ctx: AppContext, ownerId: string, part: MultipartFile, name: Part): Promise<StagedImage> {
  const file = await ctx.files.stage(ownerId, part.file, {
    maxBytes: CAPS[name],
    ext: 'img',
    tooLargeMessage: T.tooLarge(name, CAPS[name]),
  });
  try {
    const type = sniff(file.head.subarray(0, SNIFF_BYTES));
    if (!type || (type.ext !== 'webp' && type.ext !== 'png')) throw AppError.invalid(T.image(name));
    const dims = await dimensions(file.absPath, file.size);
    if (!dims) throw AppError.invalid(T.image(name));
    const [maxW, maxH] = name === 'atlas' ? [L.maxWidth, L.maxAtlasHeight] : [L.maxStillSide, L.maxStillSide];
    if (dims.width > maxW || dims.height > maxH) throw AppError.invalid(T.dimensions(name, dims.width, dims.height));
    return { file, type, ...dims };
  } catch (err) {
    await ctx.files.discard(file);
    throw err;
  }
}

/** Why the manifest does not describe this atlas, or null: every sprite inside the atlas image
 *  and inside the picture, whole pixels, the picture as wide as the atlas and above its frames. */
export function manifestMismatch(m: OwnModelAtlasManifest, atlas: { width: number; height: number }): string | null {
  if (m.width !== atlas.width) return `the picture is ${m.width} pixels wide, the atlas ${atlas.width}`;
  if (!Number.isInteger(m.height) || m.height < 1 || m.height >= atlas.height)
    return `the picture's height ${m.height} does not fit the atlas`;
  const sprites: [string, ImageAvatarSprite][] = [
    ['body', m.layers.body],
    ['head', m.layers.head],
    ...(m.layers.back ? [['back', m.layers.back] as [string, ImageAvatarSprite]] : []),
    ['eyes.open', m.eyes.open],
    ['eyes.half', m.eyes.half],
    ['eyes.closed', m.eyes.closed],
    ['brows.neutral', m.brows.neutral],
    ['brows.raised', m.brows.raised],
    ['smile', m.smile],
    ...Object.entries(m.mouth).map(([v, s]) => [`mouth.${v}`, s] as [string, ImageAvatarSprite]),
  ];
  for (const [name, s] of sprites) {
    const whole = [s.sx, s.sy, s.w, s.h, s.x, s.y].every((n) => Number.isInteger(n) && n >= 0) && s.w > 0 && s.h > 0;
    if (!whole) return `${name} is not a rectangle of whole pixels`;
    if (s.sx + s.w > atlas.width || s.sy + s.h > atlas.height) return `${name} lies outside the atlas image`;
    if (s.x + s.w > m.width || s.y + s.h > m.height) return `${name} is drawn outside the picture`;
  }
  return null;
}

function parseManifest(text: string): OwnModelAtlasManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw AppError.invalid(T.manifest);
  }
  const parsed = ownModelAtlasManifest.safeParse(json);
  if (!parsed.success) throw AppError.invalid(T.manifest);
  return parsed.data;
}

export async function readAtlasUpload(ctx: AppContext, request: FastifyRequest, ownerId: string): Promise<AtlasUpload> {
  if (!request.isMultipart()) throw malformed();
  let manifest: OwnModelAtlasManifest | undefined;
  const images: Partial<Record<Part, StagedImage>> = {};
  try {
    const parts: AsyncIterable<Multipart> = request.parts({
      limits: { files: 2, fields: 1, parts: 3, fileSize: L.atlasBytes + 1, fieldSize: L.manifestBytes },
    });
    for await (const part of stallGuarded(parts, request, malformed)) {
      if (part.type === 'field') {
        if (part.fieldname !== 'manifest') throw malformed();
        if (part.valueTruncated) throw AppError.tooLarge(T.tooLarge('manifest', L.manifestBytes));
        manifest = parseManifest(String(part.value));
        continue;
      }
      const name = part.fieldname;
      if ((name !== 'atlas' && name !== 'still') || images[name] || !manifest) {
        part.file.resume();
        throw malformed();
      }
      try {
        images[name] = await stageImage(ctx, ownerId, part, name);
      } catch (err) {
        part.file.resume();
        throw err;
      }
    }
    if (!manifest || !images.atlas || !images.still) throw malformed();
    const why = manifestMismatch(manifest, images.atlas);
    if (why) throw AppError.invalid(T.mismatch(why));
    return { manifest, atlas: images.atlas, still: images.still };
  } catch (err) {
    await Promise.all(Object.values(images).map((i) => ctx.files.discard(i.file)));
    throw multipartClientError(err, malformed) ?? err;
  }
}
