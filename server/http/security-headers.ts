/** Headers every response carries. Only the embed pages may be framed by other sites. */
import type { FastifyInstance } from 'fastify';
import { isEmbedPath } from '../embeds/paths';

export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (isEmbedPath(request.url)) reply.header('Content-Security-Policy', 'frame-ancestors *');
    else {
      reply.header('Content-Security-Policy', "frame-ancestors 'none'");
      reply.header('X-Frame-Options', 'DENY');
    }
  });
}
