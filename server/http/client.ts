/**
 * Serves the built client (dist/client): hashed assets cached for a year, every
 * other non-API path answered with index.html so the client's router takes over.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export const CLIENT_DIR = resolve(import.meta.dirname, '../../dist/client');

export async function serveClient(app: FastifyInstance) {
  if (!existsSync(resolve(CLIENT_DIR, 'index.html'))) {
    app.log.warn(`No built client in ${CLIENT_DIR}: run "npm run build" to serve the site from this process`);
    return;
  }
  await app.register(fastifyStatic, {
    root: CLIENT_DIR,
    wildcard: false,
    index: false,
    setHeaders(reply, path) {
      reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const page = (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  };
  app.get('/', { config: { access: 'public' } }, page);
  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.status(404).send({ message: `No such endpoint: GET ${request.url.split('?')[0]}` });
    return page(request, reply);
  });
}
