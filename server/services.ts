/**
 * The composition root's clients: everything the roles (api, projections, workers)
 * share, created from the configuration. Only this file and main.ts create clients.
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from './config';
import type { EventStore } from './infrastructure/event-store/port';
import type { DocumentStore } from './infrastructure/document-store/port';
import { createPostgresEventStore } from './infrastructure/event-store/postgres';
import { createKurrentDbEventStore } from './infrastructure/event-store/kurrentdb';
import { createPostgresDocumentStore } from './infrastructure/document-store/postgres';
import { createMongoDocumentStore } from './infrastructure/document-store/mongodb';
import { createCommandHandler } from './infrastructure/command-handler';
import { createProjectionProgress } from '../projections/progress';
import { createProjectionRunner, type ChangeNotice, type Logger } from '../projections/runner';
import { allProjections } from '../projections';
import { createNoticePublisher, ROOMS } from './realtime/gateway';
import { createPresence } from './realtime/presence';
import { createMailbox, startSmtpSink } from './mail/smtp-sink';
import { createTransport } from './mail/transport';
import { createMailQueue, startMailWorker } from '../workers/mail';
import { createSubscriptionMail, workerJobs } from '../workers/subscriptions';
import { SOCKET_MESSAGES } from '../shared/socket-messages';

export type Services = Awaited<ReturnType<typeof createServices>>;

export class ServiceUnavailableError extends Error {
  override readonly name = 'ServiceUnavailableError';
}

async function reachable<T>(what: string, url: string, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(`Cannot reach ${what} at ${redactUrl(url)}: ${reason}`);
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Logs the errors BullMQ emits (unheard, it prints them to stderr outside the log), a repeated one once: a
 * reconnecting client reports the same failure at every attempt.
 */
function logEachFailure(logger: Logger, message: string) {
  let last = '';
  return (error: Error) => {
    if (error.message !== last) logger.error({ err: error }, message);
    last = error.message;
  };
}

/** Outside production, creates the database named in DATABASE_URL when it does not exist yet. */
async function ensureDatabase(config: Config) {
  const probe = new pg.Client({ connectionString: config.databaseUrl });
  try {
    await probe.connect();
    await probe.end();
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000' || config.env === 'production') throw error;
    const url = new URL(config.databaseUrl);
    const name = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((e: { code?: string }) => {
      if (e.code !== '42P04') throw e;
    });
    await admin.end();
  }
}

export async function createServices(config: Config, logger: Logger) {
  await reachable('PostgreSQL', config.databaseUrl, () => ensureDatabase(config));
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
  pool.on('error', (error) => logger.error({ err: error }, 'idle PostgreSQL client failed'));
  await reachable('PostgreSQL', config.databaseUrl, async () => (await pool.query('SELECT 1')).rowCount);

  const eventStore: EventStore =
    config.eventStore === 'kurrentdb'
      ? await reachable('KurrentDB', config.kurrentDbUrl!, async () => createKurrentDbEventStore(config.kurrentDbUrl!))
      : await createPostgresEventStore({ pool });
  const store: DocumentStore =
    config.readStore === 'mongodb'
      ? await reachable('MongoDB', config.mongoDbUrl!, async () => createMongoDocumentStore(config.mongoDbUrl!))
      : createPostgresDocumentStore({ pool });

  const redis = await reachable('Redis', config.redisUrl, async () => {
    const client = new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    let lastError: Error | null = null;
    client.on('error', (error: Error) => {
      // ioredis reconnects by itself; say so once per failure instead of an unhandled-error dump.
      if (lastError?.message !== error.message) logger.error({ err: error }, 'Redis connection error; reconnecting');
      lastError = error;
    });
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw lastError ?? error;
    }
    return client;
  });

  const notices = createNoticePublisher(redis, config.redisPrefix);
  const publish = (notice: ChangeNotice) => notices.publish(notice);
  const presence = createPresence(redis, config.redisPrefix);
  const runsProjections = config.roles.has('projections');
  const progress = createProjectionProgress({ store, runnerName: 'read-models', local: runsProjections });
  const runner = createProjectionRunner({ eventStore, store, projections: allProjections, progress, publish, logger });
  const handle = createCommandHandler({ eventStore, progress });
  const mail = createMailQueue({ connection: redis, prefix: config.redisPrefix });
  mail.queue.on('error', logEachFailure(logger, 'mail queue error'));
  const mailbox = createMailbox(redis, config.redisPrefix);
  const subscriptionMail = createSubscriptionMail({ config, eventStore, store, pool, redis, mail, handle, logger });
  const stopWorkers: (() => Promise<void>)[] = [];

  /**
   * The workers role: decides subscription mail from the event log (the `mail` runner) and sends queued mail
   * (through the in-process sink when SMTP_URL is unset).
   */
  async function startWorkers() {
    let sinkPort = config.smtpSinkPort;
    if (!config.smtpUrl) {
      const sink = await startSmtpSink(mailbox, config.smtpSinkPort, {
        onCaptured: () => publish({ message: SOCKET_MESSAGES.mailboxChanged, rooms: [ROOMS.staff], payload: {} }),
      });
      sinkPort = sink.port;
      stopWorkers.push(sink.close);
      logger.info({ port: sink.port }, 'no SMTP_URL: mail is caught by the in-process sink (admins read it at /api/admin/mailbox)');
    }
    const transport = createTransport(config.smtpUrl, sinkPort, { dkim: config.dkim, pooled: true });
    const worker = startMailWorker({
      connection: redis,
      prefix: config.redisPrefix,
      transport,
      from: config.mailFrom,
      concurrency: config.mailConcurrency,
      subscriptionMail: workerJobs(subscriptionMail, transport),
    });
    worker.on('failed', (job, error) => logger.error({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'mail job failed'));
    // Besides lost connections, jobs that a restarted Redis no longer holds (the outbox sends their mail again).
    worker.on('error', logEachFailure(logger, 'mail worker error'));
    await subscriptionMail.start();
    stopWorkers.unshift(async () => {
      // Stop deciding first, then let the jobs in flight finish (worker.close waits for them).
      await subscriptionMail.stop();
      await worker.close();
      transport.close();
    });
  }

  return {
    config,
    pool,
    eventStore,
    store,
    redis,
    progress,
    runner,
    handle,
    publish,
    presence,
    mail,
    mailbox,
    subscriptionMail,
    startWorkers,
    now: () => new Date(),
    async close() {
      for (const stop of stopWorkers.splice(0)) await stop();
      await mail.close();
      await runner.stop();
      await notices.close();
      await eventStore.close();
      await store.close();
      await redis.quit();
      await pool.end();
    },
  };
}
