import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.js';

// The console is served by the server under /admin; in `vite` dev mode the API is proxied to a running server.
export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompress()],
  resolve: { conditions: ['source'] },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    proxy: {
      '/flussonic': { target: 'http://127.0.0.1:8080', ws: true },
      '/admin/login': 'http://127.0.0.1:8080',
      '/admin/logout': 'http://127.0.0.1:8080',
    },
  },
});
