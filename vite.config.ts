import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Router variant decides where `/` goes (spec §2): main → /home/index, park, monitor. */
const routerVariant = process.env.ROUTER_VARIANT ?? 'main';
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/bcmp-web/',
  plugins: [react()],
  define: {
    __ROUTER_VARIANT__: JSON.stringify(routerVariant),
  },
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  worker: { format: 'es' },
  server: {
    proxy: {
      '^/(service-[a-z]+|ws-service)': { target: apiTarget, ws: true },
      // Street-map archives (server/services/tiles), read with range requests.
      '^/tiles/': { target: apiTarget },
    },
  },
});
