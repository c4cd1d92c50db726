/**
 * The realtime role on its own (ROLES=realtime, without api): the socket.io gateway on an HTTP server of its
 * own, so that fanning a notice out to thousands of sockets runs on another event loop (and core) than the one
 * that answers the API's requests. A load balancer sends `/socket.io/` to these processes (sticky, as the
 * handshake needs) and everything else to the api processes; both read the same session cookie from Redis.
 * Besides the sockets it answers only `/healthz` and `/readyz` (Redis answers), for the container's health check.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fastifyCookie, Signer } from '@fastify/cookie';
import type { Logger } from '../../platform/logger';
import type { ApiDependencies } from '../dependencies';
import { createSessionStore } from '../http/session-store';
import { createAuthCache } from '../http/auth-cache';
import { memberActor } from '../members/actor';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from '../app';
import { attachRealtime } from './gateway';

export async function startRealtimeServer(
  services: Pick<ApiDependencies, 'config' | 'redis' | 'store' | 'presence'>,
  logger: Logger,
  listen: { port: number; host: string },
) {
  const { config, redis } = services;
  const sessions = createSessionStore(redis, config.redisPrefix, SESSION_TTL_SECONDS, createAuthCache(redis, config.redisPrefix));
  const signer = new Signer(config.sessionSecret);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
      const answer = (status: number, body: object) => {
        response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(JSON.stringify(body));
      };
      if (path === '/healthz') answer(200, { status: 'ok' });
      else
        redis.ping().then(
          () => answer(200, { status: 'ready' }),
          () => answer(503, { status: 'unavailable', reason: 'Redis does not answer' }),
        );
      return;
    }
    // socket.io takes its own path (/socket.io/) before this handler; nothing else is served here.
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ statusCode: 404, message: 'This process serves only /socket.io/ (the realtime role)' }));
  });
  const realtime = attachRealtime(server, {
    redis,
    prefix: config.redisPrefix,
    origin: new URL(config.publicUrl).origin,
    presence: services.presence,
    async authenticate(cookieHeader) {
      const signed = cookieHeader ? fastifyCookie.parse(cookieHeader)[SESSION_COOKIE] : undefined;
      const unsigned = signed ? signer.unsign(signed) : null;
      if (!unsigned?.valid || !unsigned.value) return null;
      const memberId = await sessions.memberOf(unsigned.value);
      return memberId ? memberActor(services, memberId) : null;
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, 'realtime: serving /socket.io/');
  return {
    port,
    realtime,
    async close() {
      await realtime.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
