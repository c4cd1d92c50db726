import { readdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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

/**
 * Brotli and gzip copies of every text file of the build, made once here at the highest levels so the server
 * sends them as they are (@fastify/static's preCompressed) instead of compressing on each request or not at all.
 */
const precompress: Plugin = {
  name: 'precompress',
  apply: 'build',
  async writeBundle({ dir }) {
    if (!dir) return;
    const files = (await readdir(dir, { recursive: true })).filter((file) => /\.(?:js|css|html|svg|json|txt)$/u.test(file));
    await Promise.all(
      files.map(async (file) => {
        const path = resolve(dir, file);
        const content = await readFile(path);
        if (content.length < 1024) return;
        await writeFile(
          `${path}.br`,
          brotliCompressSync(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
        await writeFile(`${path}.gz`, gzipSync(content, { level: 9 }));
      }),
    );
  },
};

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), embedPages, precompress],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // Two pages: the app, and the light embed page that other sites frame (no React, no router).
    rolldownOptions: {
      input: { main: resolve(import.meta.dirname, 'client/index.html'), embed: resolve(import.meta.dirname, 'client/embed.html') },
      // React in a chunk of its own, which the visitor's first pages and the app share (client/main.tsx), instead of
      // in whichever page's chunk the bundler would name after.
      output: { advancedChunks: { groups: [{ name: 'react-dom', test: /node_modules[\\/](?:react|react-dom|scheduler)[\\/]/u }] } },
    },
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
