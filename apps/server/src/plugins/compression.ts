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

// Answers up to this size are compressed in one call on the event loop instead of through a zlib
// stream on libuv's threadpool (decision 210's amendment). The plugin's default follows the host's
// cores (8 KB on 2), but on Node 20 it reads the host's cores, not a container's quota, and the
// stream's set-up and hand-off to the threadpool cost more than brotli q4 itself at these sizes
// (a 24 KB report page: about 0.2 ms in one call). 64 KB is the plugin's own advice for a
// CPU-constrained host: at most about 1 ms of the event loop (a 70 KB list page, decision 210).
export const COMPRESS_SYNC_BYTES = 65536;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: COMPRESS_SYNC_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
