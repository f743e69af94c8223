// The player is served by the API server: the page at /avatar/{id}, its files under /player/.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: '/player/',
  plugins: [react()],
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
