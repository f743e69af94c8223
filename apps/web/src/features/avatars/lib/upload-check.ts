// The browser's pre-check of an upload (the server checks again while the file streams).
import { fileTooLargeMessage, UPLOAD_LIMITS, type UploadKind } from '@parla/shared/limits';

export function uploadKindOf(file: File): UploadKind | null {
  if (/\.glb$/i.test(file.name) || file.type === 'model/gltf-binary') return 'glb';
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  return null;
}

/** null when the file may be sent, otherwise the message to show. */
export function uploadProblem(file: File, expected: readonly UploadKind[]): string | null {
  const kind = uploadKindOf(file);
  if (!kind || !expected.includes(kind)) {
    return expected.includes('glb') ? 'Please choose a .glb file.' : expected.includes('video') ? 'Please choose an image or a video file.' : 'Please choose an image file.';
  }
  return file.size > UPLOAD_LIMITS[kind] ? fileTooLargeMessage(kind) : null;
}
