// Reads POST /api/avatar_v2/add: multipart with the field `json` (the whole avatar) and the
// optional files backgroundImage, scene and avatarPhoto. Files are streamed straight into the
// file store, their size checked while they stream (one byte over the limit stops the upload)
// and their type checked from their first bytes. Nothing read here is recorded: the service
// records the staged files in the avatar's transaction, or discards them.
import { open } from 'node:fs/promises';
import { imageSize } from 'image-size';
import { aspectMessage, glbHeaderProblem, isSixteenByNine } from '@parla/shared/media-checks';
import type { FastifyRequest } from 'fastify';
import { issueMessages } from '@parla/shared/zod-messages';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { fileTooLargeMessage, UPLOAD_LIMITS, MB } from '@parla/shared/limits';
import {
  AVATAR_FAIL_REASONS,
  saveAvatarRequest,
  UPLOAD_FIELDS,
  type SaveAvatarRequest,
  type UploadField,
} from '@parla/shared/schemas/avatar';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { multipartClientError, stallGuarded } from '../../lib/multipart';
import type { StagedFile } from '../../lib/file-store';
import { FIELD_KINDS, FIELD_TYPE_MESSAGES, SNIFF_BYTES, sniff, type MediaType } from './avatars.media';

export interface StagedUpload {
  field: UploadField;
  file: StagedFile;
  type: MediaType;
  originalName: string | null;
}

export interface SaveRequest {
  payload: SaveAvatarRequest;
  uploads: StagedUpload[];
}

/** The whole avatar as JSON text may be large (prompts, key files), but not unbounded. */
const JSON_FIELD_MAX = 2 * MB;
const LARGEST_FILE = Math.max(...Object.values(UPLOAD_LIMITS));

const MALFORMED = 'The upload could not be read. Send multipart/form-data with the avatar in the field json.';
const malformed = () => AppError.invalid(MALFORMED, AVATAR_FAIL_REASONS.upload);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** NUL and lone surrogates cannot be stored in PostgreSQL text or jsonb: refuse them up front. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (depth > 64) return true;
  if (typeof value === 'string') return value.includes('\u0000') || LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some((v) => hasUnstorableText(v, depth + 1));
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => hasUnstorableText(k, depth + 1) || hasUnstorableText(v, depth + 1));
  return false;
}

function isUploadField(name: string): name is UploadField {
  return (UPLOAD_FIELDS as readonly string[]).includes(name);
}

/** Reads the first bytes of a stream and gives back a stream that yields them again. */
async function peek(stream: AsyncIterable<Buffer>, bytes: number): Promise<{ head: Buffer; rest: AsyncIterable<Buffer> }> {
  const it = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    if (head.length) yield head;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, rest: rest() };
}

async function stageFile(ctx: AppContext, ownerId: string, part: MultipartFile, field: UploadField): Promise<StagedUpload> {
  const { head, rest } = await peek(part.file, SNIFF_BYTES);
  const type = sniff(head);
  if (!type || !FIELD_KINDS[field].includes(type.kind)) {
    part.file.resume();
    throw AppError.invalid(FIELD_TYPE_MESSAGES[field], AVATAR_FAIL_REASONS.fileType);
  }
  try {
    const file = await ctx.files.stage(ownerId, rest, {
      maxBytes: UPLOAD_LIMITS[type.kind],
      ext: type.ext,
      tooLargeMessage: fileTooLargeMessage(type.kind),
    });
    const problem = await stagedFileProblem(field, type.kind, file.absPath, file.head, file.size);
    if (problem) {
      await ctx.files.discard(file);
      throw AppError.invalid(problem, AVATAR_FAIL_REASONS.fileType);
    }
    return { field, file, type, originalName: part.filename || null };
  } catch (err) {
    // Let the rest of the file stream by, so the client reads the answer instead of a reset.
    part.file.resume();
    throw err;
  }
}

export async function readSaveRequest(ctx: AppContext, request: FastifyRequest, ownerId: string): Promise<SaveRequest> {
  if (!request.isMultipart()) throw malformed();
  const uploads: StagedUpload[] = [];
  let json: unknown;
  let sawJson = false;
  try {
    const parts: AsyncIterable<Multipart> = request.parts({
      limits: {
        files: UPLOAD_FIELDS.length,
        fields: 1,
        parts: UPLOAD_FIELDS.length + 1,
        fileSize: LARGEST_FILE + 1,
        fieldSize: JSON_FIELD_MAX,
      },
    });
    for await (const part of stallGuarded(parts, request, malformed)) {
      if (part.type === 'field') {
        if (part.fieldname !== 'json')
          throw AppError.invalid(`Unknown field: ${part.fieldname.slice(0, 40)}. Send the avatar in the field json.`);
        if (part.valueTruncated) throw AppError.tooLarge('The avatar data is too large.');
        sawJson = true;
        json = part.value;
        continue;
      }
      const field = part.fieldname;
      if (!isUploadField(field)) {
        part.file.resume();
        throw AppError.invalid(
          `Unknown file field: ${field.slice(0, 40)}. Files go in backgroundImage, scene, avatarPhoto or avatarModel.`,
          AVATAR_FAIL_REASONS.upload,
        );
      }
      if (uploads.some((u) => u.field === field)) {
        part.file.resume();
        throw AppError.invalid(`Send at most one file in ${field}.`, AVATAR_FAIL_REASONS.upload);
      }
      uploads.push(await stageFile(ctx, ownerId, part, field));
    }
    if (!sawJson) throw AppError.invalid('The avatar data is missing: send it as JSON in the field json.');
    if (typeof json === 'string') {
      try {
        json = JSON.parse(json);
      } catch {
        throw AppError.invalid('The field json is not valid JSON.');
      }
    }
    if (hasUnstorableText(json)) throw AppError.invalid('Text must not contain NUL characters or broken Unicode.');
    const parsed = saveAvatarRequest.safeParse(json);
    if (!parsed.success) {
      throw AppError.invalid(issueMessages(parsed.error.issues));
    }
    return { payload: parsed.data, uploads };
  } catch (err) {
    await Promise.all(uploads.map((u) => ctx.files.discard(u.file)));
    throw multipartClientError(err, malformed) ?? err;
  }
}

export async function discardUploads(ctx: AppContext, uploads: StagedUpload[]): Promise<void> {
  await Promise.all(uploads.map((u) => ctx.files.discard(u.file)));
}

/** Bytes read to find an image's size (JPEG frames may come after large metadata). */
const IMAGE_HEADER_BYTES = 512 * 1024;

/** What the first bytes tell beyond the type: a .glb's declared length, a background's 16:9 shape. */
async function stagedFileProblem(field: UploadField, kind: string, absPath: string, head: Buffer, size: number): Promise<string | null> {
  if (kind === 'glb') return glbHeaderProblem(head, size);
  if (field !== 'backgroundImage' || kind !== 'image') return null;
  const fd = await open(absPath, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, IMAGE_HEADER_BYTES));
    await fd.read(buf, 0, buf.length, 0);
    let dims: { width?: number; height?: number };
    try {
      dims = imageSize(buf);
    } catch {
      return 'The background image could not be read.';
    }
    const { width = 0, height = 0 } = dims;
    return isSixteenByNine(width, height) ? null : aspectMessage(width, height);
  } finally {
    await fd.close();
  }
}
