import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const api = 'http://localhost:3000';

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss()],
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: true },
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
