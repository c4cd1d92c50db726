/**
 * `/embed.js`, the loader site owners paste with a widget: plain JavaScript
 * kept beside this file (not part of the client build), read once at start and
 * served with an ETag so browsers revalidate it cheaply.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { noContent, routeOptions } from '../http/openapi';

/** Sites keep a copy for an hour, then revalidate: a fix to the loader reaches them within the hour. */
const LOADER_MAX_AGE_SECONDS = 3600;

export async function embedRoutes(app: FastifyInstance) {
  const loader = readFileSync(resolve(import.meta.dirname, 'embed.js'));
  const etag = `"${createHash('sha256').update(loader).digest('base64url').slice(0, 27)}"`;
  const route = routeOptions(['embeds']);
  app.get(
    '/embed.js',
    route('public', 'The widget loader site owners paste beside a widget', {
      response: {
        200: { description: 'The loader script', contentType: 'text/javascript' },
        304: noContent('Unchanged since the ETag sent'),
      },
    }),
    async (request, reply) => {
      reply
        .header('Cache-Control', `public, max-age=${LOADER_MAX_AGE_SECONDS}`)
        .header('ETag', etag)
        .type('text/javascript; charset=utf-8');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.send(loader);
    },
  );
}
