import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const api = 'http://localhost:3000';

/** The server answers every /embed route with embed.html; the dev server does the same. */
const embedPages: Plugin = {
  name: 'embed-pages',
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      const url = request.url ?? '';
      if (/^\/embed(?:\/[^.?]*)?(?:\?|$)/u.test(url)) request.url = `/embed.html${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`;
      next();
    });
  },
};

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), embedPages],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // Two pages: the app, and the light embed page that other sites frame (no React, no router).
    rolldownOptions: { input: { main: resolve(import.meta.dirname, 'client/index.html'), embed: resolve(import.meta.dirname, 'client/embed.html') } },
  },
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
      '/rss': api,
      '/embed.js': api,
      '/socket.io': { target: api, ws: true },
    },
  },
});
