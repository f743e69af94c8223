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
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // three.js is split off by the dynamic import of the 3D renderer; it is large on purpose.
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': 'http://localhost:8080', '/catalogue': 'http://localhost:8080' },
  },
});
