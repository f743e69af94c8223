// Answers go out compressed to clients that accept it (decision 210): API answers and pages above
// 1 KB with brotli (quality 4, fast enough per request) or gzip, each with `Vary: accept-encoding`.
// Built assets are compressed once at build time and served as they are by @fastify/static
// (`preCompressed`); this plugin leaves an answer that already has a content-encoding alone.
// Request bodies are never inflated: a small gzip body could otherwise expand past every limit.
// WebSocket upgrades never reach onSend, and no route of ours streams (SSE is only outbound).
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

export const COMPRESS_THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
