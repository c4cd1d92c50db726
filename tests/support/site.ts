/**
 * A whole running site for integration and browser tests: a fresh database, a
 * unique Redis prefix, every role in this process, listening on a free port.
 */
import { pino } from 'pino';
import { EnvSchema, loadConfig } from '../../platform/config';
import { createServices, type Services } from '../../main/services';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { buildApp } from '../../server/app';
import { startInboundRole } from '../../main/inbound';
import type { RouteAccess } from '../../server/http/access';
import type { FastifyInstance } from 'fastify';
import type { EventStore } from '../../platform/event-store/port';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, testRedisPrefix } from './database';
import { registerCast } from './http';
import { keepRegistrationLinks } from './registration-links';

/**
 * The head of the log while nothing is appended: read until two reads in a row agree, since on PostgreSQL one read may
 * trail an event that has just committed (see `headPosition`).
 */
export async function steadyHead(eventStore: EventStore) {
  let last = await eventStore.headPosition();
  for (let reads = 0; reads < 50; reads++) {
    const now = await eventStore.headPosition();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Every rate limit of the site out of reach, for tests that send many requests from one address. */
export const UNLIMITED_RATES: Record<string, string> = Object.fromEntries(
  Object.keys(EnvSchema.entries)
    .filter((name) => name.startsWith('RATE_LIMIT_'))
    .map((name) => [name, '1000000']),
);

/**
 * Limits for a file that registers and answers for hundreds of accounts at once: 200 registrations at once queue past
 * the default bound on password hashing (PASSWORD_HASH_QUEUE).
 */
export const RSVP_RUSH_LIMITS: Record<string, string> = {
  RATE_LIMIT_AUTH_MAX: '10000',
  RATE_LIMIT_EVENT_MAX: '10000',
  PASSWORD_HASH_QUEUE: '1000',
};

export interface TestSite {
  url: string;
  app: FastifyInstance;
  /** Every route with its declared access (the table `npm run routes` prints). */
  routes: RouteAccess[];
  services: Services;
  /** The inbound SMTP listener's port, when the site runs the inbound role (ROLES with inbound, INBOUND_SMTP_PORT 0 picks one). */
  inboundPort: number | null;
  close(): Promise<void>;
}

/**
 * `alongside` starts a second process of the same site (same database and Redis
 * prefix), as a load-balanced deployment would run several; by default an API
 * process only.
 */
/**
 * A port held for the site, so that it knows its own address (PUBLIC_URL) before it starts: held until `release`, just
 * before the site listens on it. Released at once, the connections the site opens meanwhile (PostgreSQL, Redis) could
 * be given it as their own local port (a file once failed with EADDRINUSE).
 */
async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Never what keeps a process alive (a site that failed to start leaves it open).
  server.unref();
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The accounts of every role registerCast makes on a site. */
export type Cast = Awaited<ReturnType<typeof registerCast>>;

/**
 * A site started with `env`, with the cast of accounts (registerCast) on it, for the enclosing file or describe block:
 * both are made before its tests and handed to `ready`; the site closes after them.
 */
export function siteWithCast(env: Record<string, string>, ready: (started: { site: TestSite; cast: Cast }) => void) {
  let site: TestSite | undefined;
  beforeAll(async () => {
    site = await startTestSite(env);
    ready({ site, cast: await registerCast(site.url) });
  });
  afterAll(async () => {
    await site?.close();
  });
}

/**
 * The services of another worker process of `site` (same database, Redis prefix and session secret, plus `env`), as a
 * deployment with a second worker machine runs them; built, with nothing started: the caller starts what it needs.
 */
export async function workerProcessOf(site: TestSite, env: Record<string, string | undefined> = {}): Promise<Services> {
  const { config } = site.services;
  return createServices(
    loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: config.databaseUrl,
      REDIS_PREFIX: config.redisPrefix,
      ROLES: 'workers',
      SESSION_SECRET: config.sessionSecret,
      LOG_LEVEL: 'warn',
      ...env,
    }),
    pino({ level: 'warn' }),
  );
}

/**
 * The site's read models as the store holds them, apart from the read-model runner's memory of what it committed (which
 * the site's own store answers reads by _id from): for tests that write them besides the runner, as a replay by hand.
 */
export const readModelsApart = (site: TestSite) => createPostgresDocumentStore({ pool: site.services.pool });

export async function startTestSite(env: Record<string, string> = {}, alongside?: TestSite): Promise<TestSite> {
  const database = alongside ? null : await createTestDatabase();
  const { port, release } = await reservePort();
  const config = loadConfig({
    // The same-origin check compares with PUBLIC_URL only, so a site's own forms must come from it.
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: 'test',
    DATABASE_URL: alongside?.services.config.databaseUrl ?? database!.url,
    REDIS_PREFIX: alongside?.services.config.redisPrefix ?? testRedisPrefix(),
    ...(alongside ? { ROLES: 'api,realtime' } : {}),
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    SCRYPT_N: '1024',
    SMTP_SINK_PORT: '0',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    ...env,
  });
  const logger = pino({ level: config.logLevel });
  const services = await createServices(config, logger);
  if (config.roles.has('projections')) await services.readModels.start();
  if (config.roles.has('workers')) await services.startWorkers();
  const inbound = config.roles.has('inbound') ? await startInboundRole(services, logger) : null;
  const { app, routes } = await buildApp(services, { logger: false, serveClient: true });
  await release();
  const address = await app.listen({ port, host: '127.0.0.1' });
  // Registration mails the link that finishes it: registerMember reads it here (tests/support/registration-links.ts).
  // Without SMTP_URL a workers role (this process's, or that of the site this one runs alongside) delivers to the sink.
  const sink =
    !config.smtpUrl && (config.roles.has('workers') || alongside) ? { redis: services.redis, key: `${config.redisPrefix}:mailbox` } : null;
  const forgetRegistrationLinks = keepRegistrationLinks(address, services.mail.queue, sink);
  return {
    url: address,
    app,
    routes,
    services,
    inboundPort: inbound?.port ?? null,
    async close() {
      forgetRegistrationLinks();
      await inbound?.close();
      await app.close();
      await services.close();
      await database?.drop();
    },
  };
}
