/**
 * The composition root's clients: everything the roles (api, projections, workers)
 * share, created from the configuration. Only this file and main.ts create clients.
 */
import type { Config } from '../platform/config';
import type { EventStore } from '../platform/event-store/port';
import type { DocumentStore } from '../platform/document-store/port';
import { createPostgresEventStore } from '../platform/event-store/postgres';
import { connectKurrentDbEventStore } from '../platform/event-store/kurrentdb';
import { createPostgresDocumentStore } from '../platform/document-store/postgres';
import { connectMongoDocumentStore } from '../platform/document-store/mongodb';
import { createCommandHandler } from '../platform/command-handler';
import { createDiskMediaStorage } from '../platform/media-storage/disk';
import { connectS3MediaStorage } from '../platform/media-storage/s3';
import type { MediaStorage } from '../platform/media-storage/port';
import { startMediaSweep } from '../projections/media';
import { startBlogSchedule } from '../projections/blog';
import { createPersonalDataKeys } from '../platform/personal-data/keys';
import { sealPersonalData } from '../platform/personal-data/sealed-event-store';
import { createProjectionProgress } from '../platform/projections/progress';
import { createProjectionRunner, readingCommitted } from '../platform/projections/runner';
import { createLeadership } from '../platform/projections/leadership';
import { namedIfSlow, type Logger } from '../platform/logger';
import { allProjections } from '../projections';
import { createNoticePublisher } from '../platform/realtime/notices';
import { connectPostgres, connectRedis, reachable } from '../platform/connections';
import { createPresence } from '../server/realtime/presence';
import { createMailbox, startSmtpSink } from '../platform/mail/smtp-sink';
import { createTransport } from '../platform/mail/transport';
import { createMailQueue, startMailWorker } from '../workers/mail';
import { createSubscriptionMail, workerJobs } from '../workers/subscriptions';
import { ROOMS, type ChangeNotice } from '../shared/socket-messages';
import { mailOutbox, outboxFigures } from '../workers/subscriptions/outbox';
import type { MailFigures } from '../server/dependencies';
import { siteTimeZone as readSiteTimeZone } from '../projections/site-pages';

export type Services = Awaited<ReturnType<typeof createServices>>;

/** Advisory lock key of the read-model runner ('bhrm'): one runs at a time, whatever the number of projections processes. */
export const READ_MODEL_RUNNER_LOCK = 0x6268_726d;

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

export async function createServices(config: Config, logger: Logger) {
  const pool = await connectPostgres(config, logger);
  const log: EventStore =
    config.eventStore === 'kurrentdb'
      ? await reachable('KurrentDB', config.kurrentDbUrl!, () => connectKurrentDbEventStore(config.kurrentDbUrl!))
      : await createPostgresEventStore({ pool });
  const store: DocumentStore =
    config.readStore === 'mongodb'
      ? await reachable('MongoDB', config.mongoDbUrl!, () => connectMongoDocumentStore(config.mongoDbUrl!))
      : createPostgresDocumentStore({ pool });
  // Everyone reads and writes the log through this: personal data stays sealed in it (docs/domain/members.md#erasure).
  const personalDataKeys = createPersonalDataKeys(store);
  const eventStore = sealPersonalData(log, personalDataKeys);

  const redis = await connectRedis(config, logger);
  const media: MediaStorage =
    config.media.store === 's3'
      ? await reachable('S3', config.media.s3!.url, () => connectS3MediaStorage(config.media.s3!))
      : createDiskMediaStorage(config.media.directory);

  const notices = createNoticePublisher(redis, config.redisPrefix);
  const publish = (notice: ChangeNotice) => notices.publish(notice);
  const presence = createPresence(redis, config.redisPrefix);
  // The runner reports its progress here while this process runs it; otherwise waiting reads the stored checkpoint.
  const progress = createProjectionProgress({ store, runnerName: 'read-models', local: () => readModels.leading() });
  const runner = createProjectionRunner({
    eventStore,
    store,
    projections: allProjections,
    progress,
    publish,
    logger,
    pageEvents: config.projectionPageEvents,
    onStopped: () => void readModels.stopped(),
  });
  /** The projections role: runs the read-model runner while this process holds its lock, else stands by to take over. */
  const readModels = createLeadership({
    pool,
    lockKey: READ_MODEL_RUNNER_LOCK,
    what: 'the read-model runner',
    logger,
    lead: () => runner.start(),
    follow: () => runner.stop(),
  });
  const handle = createCommandHandler({ eventStore, progress });
  const mail = createMailQueue({ connection: redis, prefix: config.redisPrefix });
  mail.queue.on('error', logEachFailure(logger, 'mail queue error'));
  const mailbox = createMailbox(redis, config.redisPrefix);
  const siteTimeZone = () => readSiteTimeZone(store, config.timeZone);
  const subscriptionMail = createSubscriptionMail({ config, eventStore, store, pool, redis, mail, handle, logger, siteTimeZone });
  const stopWorkers: { part: string; stop: () => Promise<unknown> }[] = [];

  /**
   * The workers role: decides subscription mail from the event log (the `mail` runner) and sends queued mail
   * (through the in-process sink when SMTP_URL is unset).
   */
  async function startWorkers() {
    let sinkPort = config.smtpSinkPort;
    if (!config.smtpUrl) {
      const sink = await startSmtpSink(mailbox, config.smtpSinkPort, {
        onCaptured: () => publish({ message: 'mailbox:changed', rooms: [ROOMS.staff], payload: {} }),
      });
      sinkPort = sink.port;
      stopWorkers.push({ part: 'SMTP sink', stop: sink.close });
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
    const stopMediaSweep = startMediaSweep(
      { store, storage: media, handle, now: () => new Date(), graceMs: config.media.orphanHours * 3600 * 1000 },
      logger,
    );
    stopWorkers.push({ part: 'media sweep', stop: async () => stopMediaSweep() });
    const stopBlogSchedule = startBlogSchedule({ store, handle, now: () => new Date() }, logger);
    stopWorkers.push({ part: 'blog schedule', stop: stopBlogSchedule });
    // Stop deciding first, then let the jobs in flight finish (worker.close waits for them).
    stopWorkers.unshift(
      { part: 'subscription mail', stop: () => subscriptionMail.stop() },
      {
        part: 'mail worker',
        stop: async () => {
          await worker.close();
          transport.close();
        },
      },
    );
  }

  return {
    config,
    pool,
    eventStore,
    personalDataKeys,
    // Reads by _id answered from what the read-model runner committed, while this process leads (and waits on it).
    store: readingCommitted(store, (collection, id) => (readModels.leading() ? runner.committed(collection, id) : undefined)),
    redis,
    progress,
    mailProgress: subscriptionMail.progress,
    runner,
    readModels,
    handle,
    publish,
    presence,
    mail,
    mailbox,
    media,
    subscriptionMail,
    startWorkers,
    /** Every runner and the projections it runs (for projections:status, /readyz and monitoring). */
    runners: () => [runner, subscriptionMail.runner].map((one) => ({ name: one.name, projections: one.projections() })),
    now: () => new Date(),
    siteTimeZone,
    async mailFigures(): Promise<MailFigures> {
      const [jobs, scheduledJobs, outbox] = await Promise.all([
        mail.queue.getJobCounts('waiting', 'active', 'failed', 'delayed'),
        mail.queue.getJobSchedulersCount(),
        outboxFigures(mailOutbox(store), new Date()),
      ]);
      return { jobs, scheduledJobs, outbox };
    },
    async close() {
      // Each part is named in the log when it takes long to stop, so a shutdown that hangs says where.
      const connections = () => ({ postgres: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } });
      const stopping = (part: string, stop: () => Promise<unknown>) => namedIfSlow(logger, part, stop(), connections);
      for (const { part, stop } of stopWorkers.splice(0)) await stopping(part, stop);
      await stopping('mail queue', () => mail.close());
      await stopping('read models', () => readModels.stop());
      await stopping('projection runner', () => runner.stop());
      await stopping('change notices', () => notices.close());
      await stopping('event store', () => eventStore.close());
      await stopping('document store', () => store.close());
      await stopping('media storage', () => media.close());
      await stopping('redis', () => redis.quit());
      await stopping('postgres pool', () => pool.end());
    },
  };
}
