// Test support of the avatar API tests: multipart bodies built byte by byte (so tests control
// sizes exactly and can break the format on purpose), files whose first bytes are real PNG, MP4
// and GLB signatures, and a save helper.
import type { LightMyRequestResponse } from 'fastify';
import { UPLOAD_REF } from '@parla/shared/schemas/avatar';
import type { TestServer } from './harness';

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export const BOUNDARY = '----parla-test-boundary-7MA4YWxkTrZu0gW';

export function multipart(parts: Part[], boundary = BOUNDARY): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.contentType
      ? `\r\nContent-Type: ${p.contentType}`
      : p.filename !== undefined
        ? '\r\nContent-Type: application/octet-stream'
        : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof p.value === 'string' ? Buffer.from(p.value) : p.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG signature and IHDR chunk of the given size (16:9 by default, as backgrounds must be). */
export function pngHeader(width = 1920, height = 1080): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  return Buffer.concat([PNG, ihdr]);
}

/** A buffer of exactly `size` bytes that starts like a file of the kind (a .glb declares its size). */
export function fileOf(kind: 'png' | 'mp4' | 'glb' | 'text', size: number, dims?: { width: number; height: number }): Buffer {
  const glb = Buffer.concat([Buffer.from('glTF'), Buffer.from([2, 0, 0, 0]), Buffer.alloc(4)]);
  glb.writeUInt32LE(size, 8);
  const head =
    kind === 'png'
      ? pngHeader(dims?.width, dims?.height)
      : kind === 'mp4'
        ? Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom')])
        : kind === 'glb'
          ? glb
          : Buffer.from('just some text, not an image');
  const out = Buffer.alloc(size, 0x2a);
  head.copy(out, 0, 0, Math.min(head.length, size));
  return out;
}

export interface Upload {
  field: 'backgroundImage' | 'scene' | 'avatarPhoto' | 'avatarModel';
  data: Buffer;
  filename?: string;
}

export function save(server: TestServer, token: string, json: unknown, uploads: Upload[] = []): Promise<LightMyRequestResponse> {
  const body = multipart([
    { name: 'json', value: JSON.stringify(json) },
    ...uploads.map((u) => ({ name: u.field, value: u.data, filename: u.filename ?? `${u.field}.bin` })),
  ]);
  return server.inject({ method: 'POST', url: '/api/avatar_v2/add', token, ...body });
}

export { UPLOAD_REF };
