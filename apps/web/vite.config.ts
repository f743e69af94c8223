import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

// The portal lives under /react (spec 1 §2). In development the API is proxied to the server.
export default defineConfig({
  base: '/react/',
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
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/kb': 'http://127.0.0.1:8080',
      '/avatar': 'http://127.0.0.1:8080',
      '/player': 'http://127.0.0.1:8080',
      '/catalogue': 'http://127.0.0.1:8080',
      '/config-files': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // Rolldown's "[PLUGIN_TIMINGS]" note names slow plugins when a build is slow, which on a busy
      // 2-core machine is every build: a newcomer's first start should not read as a failure
      // (issue 39). Profile a build with `node --cpu-prof` to find its time instead.
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          // Everything the entry imports statically is one file (decision 019): left to itself,
          // Rolldown cut it into ~20 small files (one per MUI piece the lazy screens share), each
          // paying its own response headers and its own brotli start.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
});
