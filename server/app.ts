/**
 * Builds the HTTP application from its dependencies. Tests use it with app.inject
 * or by listening on a free port; main.ts starts it for real.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie, { Signer } from '@fastify/cookie';
import session from '@fastify/session';
import formbody from '@fastify/formbody';
import compress from '@fastify/compress';
import { constants as zlib } from 'node:zlib';
import rateLimit from '@fastify/rate-limit';
import type { ApiDependencies } from './dependencies';
import { registerErrorHandler } from './http/errors';
import { parseQueryString } from './http/query-string';
import { registerAccessControl, type RouteAccess } from './http/access';
import { registerSameOriginCheck } from './http/same-origin';
import { createSessionStore } from './http/session-store';
import { createAuthCache } from './http/auth-cache';
import { healthRoutes } from './monitoring/health-routes';
import { monitoringRoutes } from './monitoring/monitoring-routes';
import { memberActor, resolveActor } from './members/actor';
import { attachRealtime, detachedRealtime, type Realtime } from './realtime/gateway';
import { memberRoutes } from './members/routes';
import { accountRoutes } from './members/account-routes';
import { feedRoutes } from './feed/routes';
import { blogRoutes } from './blog/routes';
import { commentRoutes } from './comments/routes';
import { discussionRoutes } from './discussions/routes';
import { mailReplyRoutes } from './mail-replies/routes';
import { reportRoutes } from './reports/routes';
import { notificationRoutes } from './notifications/routes';
import { bookmarkRoutes } from './bookmarks/routes';
import { directoryRoutes } from './members/directory';
import { erasureRoutes } from './members/erasure-routes';
import { profileRoutes } from './members/profile-routes';
import { eventRoutes } from './events/routes';
import { eventOrganiserRoutes } from './events/organiser-routes';
import { subscriptionRoutes } from './subscriptions/routes';
import { serveClient } from './http/client';
import { createReadCache } from './http/read-cache';
import { registerEtags } from './http/etag';
import { crawlerRoutes } from './crawlers/routes';
import { publicPages } from './public-pages/pages';
import { createServer } from 'node:http';
import { createPasswordWork } from './members/passwords';
import { createAddressLimits } from './members/address-limits';
import { sitePageRoutes } from './site-pages/routes';
import { mailboxRoutes } from './mail/mailbox-routes';
import { maskLinkTokens } from './mail/masked-links';
import { passwordResetRoutes } from './members/password-reset-routes';
import { registerSecurityHeaders } from './http/security-headers';
import { registerRefusedBodies } from './http/refused-bodies';
import { embedRoutes } from './embeds/routes';
import { mediaRoutes } from './media/routes';
import { DOCS_PREFIX, OPENAPI_PATH, registerOpenApi, registerValibotSchemas, requireRouteSchemas } from './http/openapi';

export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
export const SESSION_COOKIE = 'bhc.sid';
/** How often a signed-in session's expiry moves forward as the member keeps using the site. */
const SESSION_RENEWAL_MS = 24 * 3600 * 1000;
/** The API's version in the OpenAPI document: the package's. */
const API_VERSION = (JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }).version;

export interface App {
  app: FastifyInstance;
  routes: RouteAccess[];
  realtime: Realtime;
}

/** The nearest `hops` proxies are believed (fastify's own meaning of a number, which its types do not list). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(
  services: ApiDependencies,
  options: { logger?: boolean | object; serveClient?: boolean } = {},
): Promise<App> {
  const { config } = services;
  const serverOptions: FastifyServerOptions = {
    // A hop count or a list of addresses (proxy-addr); never `true`, which would believe a client's own header.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      // A link's token in a logged address (sign-in, password reset, confirmation) would let a reader of the log act on it.
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: maskLinkTokens(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    bodyLimit: 1024 * 1024,
    // A request, body included, has REQUEST_TIMEOUT_MS (a minute) to arrive; a caller trickling one in byte by byte
    // is cut off then (408, connection closed), instead of holding a connection for as long as it likes. Node checks
    // every 2 s, and reads the timeout only when the server is made.
    // An idle kept-alive connection stays open 72 s, as Fastify's own server would (Node's default is 5 s): a client
    // that reuses one just as the server closes it gets a reset instead of an answer.
    serverFactory: (handler) => {
      const server = createServer({ requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 2_000 }, handler);
      server.keepAliveTimeout = 72_000;
      return server;
    },
    routerOptions: { querystringParser: parseQueryString },
  };
  const app: FastifyInstance = Fastify(serverOptions);

  registerErrorHandler(app);
  registerValibotSchemas(app);
  requireRouteSchemas(app);
  const authCache = createAuthCache(services.redis, config.redisPrefix);
  const routes = registerAccessControl(app, (request) => resolveActor(services, request, authCache), [DOCS_PREFIX]);
  registerSameOriginCheck(app, config.publicUrl);
  registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });
  // A body refused before it all arrived: answered at once, then its connection closed (server/http/refused-bodies.ts).
  registerRefusedBodies(app);

  // Public reads carry an ETag of their uncompressed body (so this comes before compression) and answer 304 to it.
  registerEtags(app);
  // What a member is answered is theirs: no shared cache keeps it, nor the browser's disk, unless a route said
  // otherwise (public reads revalidated by ETag: private, no-cache).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.actor && !reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      reply.header('cache-control', 'private, no-store');
    return payload;
  });
  // Answers over a kilobyte go out brotli or gzip compressed, at a level quick enough to do per request; the
  // built client's files are compressed once at build time and sent as they are (server/http/client.ts).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });

  const sessions = createSessionStore(services.redis, config.redisPrefix, SESSION_TTL_SECONDS, authCache);
  const signer = new Signer(config.sessionSecret);
  await app.register(cookie);
  await app.register(session, {
    secret: signer,
    cookieName: SESSION_COOKIE,
    store: sessions.store,
    saveUninitialized: false,
    // Not rewritten on every request: a signed-in session is renewed (for SESSION_TTL_SECONDS) once a day instead, below.
    rolling: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies, path: '/', maxAge: SESSION_TTL_SECONDS * 1000 },
  });
  app.addHook('preHandler', async (request) => {
    const { session } = request;
    const now = Date.now();
    if (session?.memberId && !(now - (session.renewedAt ?? 0) < SESSION_RENEWAL_MS)) session.renewedAt = now;
    if (session?.memberId) sessions.memberSessions.seen(session.memberId, session.sessionId);
  });
  // Form bodies decode as query strings do, so that text that is not UTF-8 is refused the same way.
  await app.register(formbody, { parser: parseQueryString });
  // Calls without a body (like, approve, sign out) may still say Content-Type: application/json, as many HTTP
  // clients do: an empty body is no body (docs/architecture.md#http-conventions), not fastify's 400. Everything else is parsed
  // by fastify's own JSON parser, with its prototype-poisoning guards.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, body as string, done),
  );
  // Limits are set per route (sign-in, registration, e-mail links, posting), counted per client address in Redis.
  await app.register(rateLimit, {
    global: false,
    redis: services.redis,
    nameSpace: `${config.redisPrefix}:rate:`,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many attempts. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });

  // The sockets: on this HTTP server when this process runs the realtime role too, else on realtime processes.
  const realtime = !config.roles.has('realtime')
    ? detachedRealtime({ redis: services.redis, prefix: config.redisPrefix })
    : attachRealtime(app.server, {
        redis: services.redis,
        prefix: config.redisPrefix,
        origin: new URL(config.publicUrl).origin,
        presence: services.presence,
        async authenticate(cookieHeader) {
          const signed = cookieHeader ? app.parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
          const unsigned = signed ? signer.unsign(signed) : null;
          if (!unsigned?.valid || !unsigned.value) return null;
          const memberId = await sessions.memberOf(unsigned.value);
          return memberId ? memberActor(services, memberId) : null;
        },
      });
  app.addHook('preClose', () => realtime.close());

  await registerOpenApi(app, { version: API_VERSION, publicUrl: config.publicUrl });
  app.get(OPENAPI_PATH, { config: { access: 'public' }, schema: { hide: true } }, () => app.swagger());

  await app.register(healthRoutes, { services });
  // One bound on password hashing for the whole process, and limits per address whoever asks.
  const passwords = createPasswordWork(config.scrypt, config.passwordHashing);
  const addressLimits = createAddressLimits(services.redis, config.redisPrefix, config.sessionSecret, {
    'sign-in-failures': { max: config.rateLimits.accountFailures, windowSeconds: 15 * 60 },
    'mail-links': { max: config.rateLimits.mailLinks, windowSeconds: 3600 },
  });
  // The members' routes share their sessions, the socket disconnect, the password work and the limits.
  const memberOptions = {
    services,
    memberSessions: sessions.memberSessions,
    disconnectMember: (id: string) => realtime.disconnectMember(id),
    passwords,
    addressLimits,
  };
  await app.register(memberRoutes, memberOptions);
  await app.register(accountRoutes, memberOptions);
  await app.register(passwordResetRoutes, memberOptions);
  await app.register(erasureRoutes, memberOptions);

  await app.register(feedRoutes, { services });
  await app.register(blogRoutes, { services });
  await app.register(commentRoutes, { services });
  await app.register(discussionRoutes, { services });
  await app.register(mailReplyRoutes, { services });
  await app.register(reportRoutes, { services });
  await app.register(notificationRoutes, { services });
  await app.register(bookmarkRoutes, { services });
  await app.register(directoryRoutes, { services });
  await app.register(profileRoutes, { services });
  await app.register(eventRoutes, { services });
  await app.register(eventOrganiserRoutes, { services });
  await app.register(subscriptionRoutes, { services });
  await app.register(mediaRoutes, { services });
  await app.register(monitoringRoutes, { services, realtime });
  await app.register(embedRoutes);
  if (!config.smtpUrl)
    await app.register(mailboxRoutes, { mailbox: services.mailbox, publicUrl: config.publicUrl, followLinks: config.env !== 'production' });

  await app.register(sitePageRoutes, { services });
  await app.register(crawlerRoutes, { siteUrl: config.publicUrl, store: services.store });
  if (options.serveClient ?? true)
    await app.register(serveClient, {
      pages: publicPages({
        store: services.store,
        siteUrl: config.publicUrl,
        timeZone: services.siteTimeZone,
        now: services.now,
        cached: createReadCache(services.progress),
      }),
    });
  return { app, routes, realtime };
}
