import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server (npm run server) listens on API_PORT; `npm run dev` proxies the API and sockets to it.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    // hashed bundles go to /static; /assets is the item and case art served by the API server
    assetsDir: 'static',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, ws: true },
      '/tonconnect-manifest.json': apiTarget,
    },
  },
});
