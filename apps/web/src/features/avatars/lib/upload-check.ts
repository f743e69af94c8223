// The browser's pre-check of an upload (the server checks again while the file streams).
import { fileTooLargeMessage, UPLOAD_LIMITS, type UploadKind } from '@parla/shared/limits';
import { aspectMessage, glbHeaderProblem, isSixteenByNine } from '@parla/shared/media-checks';

export function uploadKindOf(file: File): UploadKind | null {
  if (/\.(glb|vrm)$/i.test(file.name) || file.type === 'model/gltf-binary') return 'glb';
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  return null;
}

/** null when the file may be sent, otherwise the message to show. */
export function uploadProblem(file: File, expected: readonly UploadKind[]): string | null {
  const kind = uploadKindOf(file);
  if (!kind || !expected.includes(kind)) {
    return expected.includes('glb')
      ? 'Please choose a .glb file.'
      : expected.includes('video')
        ? 'Please choose an image or a video file.'
        : 'Please choose an image file.';
  }
  return file.size > UPLOAD_LIMITS[kind] ? fileTooLargeMessage(kind) : null;
}

/** The first bytes of a file. */
async function headOf(file: Blob, bytes: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, bytes).arrayBuffer());
}

/** An image's pixel size, as the browser decodes it (null when it cannot). */
async function imageDimensions(file: Blob): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/**
 * The full check before upload: type and size, then what the content says — a .glb's header
 * (magic, version 2, declared length) and, for backgrounds, the image's 16:9 shape. The server
 * checks the same again on save.
 */
export async function checkUpload(
  file: File,
  expected: readonly UploadKind[],
  opts: { sixteenByNine?: boolean } = {},
): Promise<string | null> {
  const basic = uploadProblem(file, expected);
  if (basic) return basic;
  const kind = uploadKindOf(file);
  if (kind === 'glb') return glbHeaderProblem(await headOf(file, 12), file.size);
  if (kind === 'image' && opts.sixteenByNine) {
    const size = await imageDimensions(file);
    if (!size) return 'This image could not be read.';
    return isSixteenByNine(size.width, size.height) ? null : aspectMessage(size.width, size.height);
  }
  return null;
}
