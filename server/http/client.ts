/**
 * Serves the built client (dist/client): hashed assets cached for a year, other
 * files revalidated, each as the build's brotli or gzip copy to a client that
 * accepts it; the embed routes answered with the light embed page, and every
 * other non-API path with index.html so the client's router takes over.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import * as v from 'valibot';
import { isEmbedPath } from '../embeds/paths';
import { withNoscriptConfirmForm, withNoscriptUnsubscribeForm } from '../subscriptions/link-pages';

export const CLIENT_DIR = resolve(import.meta.dirname, '../../dist/client');

function builtFile(urlPath: string): string | null {
  const path = resolve(CLIENT_DIR, `.${decodeURIComponent(urlPath)}`);
  if (!path.startsWith(CLIENT_DIR + sep)) return null;
  return existsSync(path) && statSync(path).isFile() ? path.slice(CLIENT_DIR.length + 1) : null;
}

export async function serveClient(app: FastifyInstance) {
  if (!existsSync(resolve(CLIENT_DIR, 'index.html'))) {
    app.log.warn(`No built client in ${CLIENT_DIR}: run "npm run build" to serve the site from this process`);
    return;
  }
  // Only reply.sendFile: our own route decides what is served, with its access declared, and its Cache-Control
  // (the plugin's own would replace it with max-age=0). The build's brotli and gzip copies go to clients that take them.
  await app.register(fastifyStatic, { root: CLIENT_DIR, serve: false, cacheControl: false, preCompressed: true });

  const APP_PAGE = { summary: 'The web app', tags: ['pages'], response: { 200: { description: 'The app’s page', contentType: 'text/html' } } };
  const TokenParams = v.object({ token: v.string() });
  const page = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  app.get('/', { config: { access: 'public' }, schema: APP_PAGE },  (_request, reply) => page(reply));
  // The pages a mail links to must work with JavaScript off too (a link opened in a locked-down
  // client): the same page, plus a plain form that POSTs the token.
  for (const [path, withForm] of [
    ['/unsubscribe/:token', withNoscriptUnsubscribeForm],
    ['/subscribe/confirm/:token', withNoscriptConfirmForm],
  ] as const)
    app.get(path, { config: { access: 'public' }, schema: { ...APP_PAGE, summary: 'A page a mail links to, with a form that works without JavaScript', params: TokenParams } }, async (request, reply) => {
      const { token } = request.params as v.InferOutput<typeof TokenParams>;
      const html = await readFile(resolve(CLIENT_DIR, 'index.html'), 'utf8');
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(withForm(html, token));
    });
  // Every other page of the app, its built files, and the widgets' page: not part of the API.
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/')) return reply.status(404).send({ message: `No such endpoint: GET ${path}` });
    if (isEmbedPath(path)) return reply.header('Cache-Control', 'no-cache').sendFile('embed.html');
    const file = builtFile(path);
    if (!file) return page(reply);
    const cache = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    return reply.header('Cache-Control', cache).sendFile(file);
  });
}
