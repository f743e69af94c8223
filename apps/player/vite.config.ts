// The player is served by the API server: the page at /avatar/{id}, its files under /player/.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

export default defineConfig({
  base: '/player/',
  plugins: [
    react(),
    // Every built text asset also as .br and .gz, at the highest levels (built once, served by
    // @fastify/static's preCompressed to browsers that accept them; decision 210).
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      threshold: 1024,
      logLevel: 'silent',
    }),
    // The VAD's WebAssembly runtime and model (14 MB and 2 MB, fetched with the microphone;
    // decision 112) at middle levels: quality 11 on them would add minutes to every build for
    // a few per cent.
    compression({
      include: /\.(wasm|onnx)$/,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
        defineAlgorithm('gzip', { level: 6 }),
      ],
      logLevel: 'silent',
    }),
  ],
  build: {
    // Rolldown's "[PLUGIN_TIMINGS]" note names slow plugins when a build is slow, which on a busy
    // 2-core machine is every build: a newcomer's first start should not read as a failure
    // (issue 39). Profile a build with `node --cpu-prof` to find its time instead.
    rolldownOptions: { checks: { bundlerTimings: false } },
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Large chunks on purpose, each loaded only by the avatars that need it: the Agora SDK (about
    // 1.5 MB, Agora TEN agents only) and three.js (the 3D renderer). The limit sits just above
    // the Agora chunk, so a first start prints no warning a newcomer must wonder about (issue 39)
    // and a chunk that grows past it still does.
    chunkSizeWarningLimit: 1600,
  },
  server: {
    proxy: { '/api': 'http://localhost:8080', '/catalogue': 'http://localhost:8080' },
  },
});
