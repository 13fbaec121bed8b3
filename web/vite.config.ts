// Dashboard build: `vite build web` from the repository root writes web/dist, which the API
// serves at /dashboard/. `vite web` runs a dev server that proxies API calls to API_ORIGIN.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const apiOrigin = process.env.API_ORIGIN ?? 'http://127.0.0.1:3000';
const apiPaths = ['/auth', '/keys', '/accounts', '/api', '/healthz'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [svelte()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((path) => [path, { target: apiOrigin, changeOrigin: false }])),
  },
});
