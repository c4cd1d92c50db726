/**
 * Subscription mail, as the workers role runs it:
 * - the `mail` runner (its own checkpoint, so rebuilding read models never re-sends mail) applies, per event,
 *   mail_recipients, mail_items and the reactor that writes the outbox, then the mail to the people of an event
 *   (workers/attendees) and to the watchers of a topic (workers/discussions). Of several worker processes, the one holding
 *   a PostgreSQL advisory lock runs it and the others wait to take over (platform/projections/leadership.ts); two
 *   running at once (a lock lost with its connection) would only do the same work twice, since outbox ids are unique;
 * - the mail worker sends outbox entries (workers/subscriptions/delivery.ts) and runs digests from job schedulers;
 * - the sweeper enqueues every entry still queued: at start, every minute, and whenever the Redis connection is
 *   ready again, since a restarted Redis has lost its queue and its schedulers (both are upserted again then);
 * - the process running the mail runner also prunes the outbox of mail sent longer ago than its retention
 *   (MAIL_OUTBOX_RETENTION_DAYS), at most once an hour.
 */
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Config } from '../../platform/config';
import type { DocumentStore } from '../../platform/document-store/port';
import type { EventStore } from '../../platform/event-store/port';
import type { CommandHandler } from '../../platform/command-handler';
import type { Transport } from '../../platform/mail/transport';
import { createProjectionProgress } from '../../platform/projections/progress';
import { createProjectionRunner } from '../../platform/projections/runner';
import { createLeadership } from '../../platform/projections/leadership';
import { namedIfSlow, type Logger } from '../../platform/logger';
import type { MailQueue, SubscriptionMail } from '../mail';
import { mailRecipientsProjection } from './recipients';
import { mailItemsProjection } from './items';
import { createMailReactor } from './reactor';
import { createAttendeeMail } from '../attendees/attendee-mail';
import { createWatcherMail } from '../discussions/watcher-mail';
import { mailErasureProjection } from '../erasure';
import { mailOutbox, pruneSentEntries, queuedIds } from './outbox';
import { digestPeriodsInUse, runDigest, type DigestFrequency } from './digests';
import { createDelivery } from './delivery';

export const MAIL_RUNNER = 'mail';
const SWEEP_EVERY_MS = 60_000;
const PRUNE_EVERY_MS = 3600_000;
const DAY_MS = 86_400_000;
/** Advisory lock key of the mail runner ('bhml'). */
const MAIL_RUNNER_LOCK = 0x6268_6d6c;

export interface SubscriptionMailOptions {
  config: Pick<
    Config,
    'publicUrl' | 'mailFrom' | 'subscriptionLinkSecret' | 'timeZone' | 'digestSchedule' | 'mailOutboxRetentionDays' | 'inbound'
  >;
  eventStore: EventStore;
  store: DocumentStore;
  pool: pg.Pool;
  redis: Redis;
  mail: MailQueue;
  handle: CommandHandler;
  logger: Logger;
  /** The zone event times are shown in, as admins set it now (else the configuration's TIME_ZONE). */
  siteTimeZone?: () => Promise<string>;
}

export function createSubscriptionMail({
  config,
  eventStore,
  store,
  pool,
  redis,
  mail,
  handle,
  logger,
  siteTimeZone = async () => config.timeZone,
}: SubscriptionMailOptions) {
  const enqueue = (outboxIds: string[]) => mail.enqueueOutbox(outboxIds);
  const reactor = createMailReactor({
    enqueue,
    onEnqueueError: (error) =>
      logger.error({ err: error }, 'could not enqueue subscription mail; the sweeper enqueues it when Redis is back'),
    now: () => new Date(),
    linkSecret: config.subscriptionLinkSecret,
  });
  const attendeeMail = createAttendeeMail({
    enqueue,
    onEnqueueError: (error) =>
      logger.error({ err: error }, 'could not enqueue mail to attendees; the sweeper enqueues it when Redis is back'),
    now: () => new Date(),
  });
  const watcherMail = createWatcherMail({
    enqueue,
    onEnqueueError: (error) =>
      logger.error({ err: error }, "could not enqueue mail to a topic's watchers; the sweeper enqueues it when Redis is back"),
    now: () => new Date(),
  });
  // In memory while this process runs the mail runner; read from its stored checkpoint while another process does.
  const progress = createProjectionProgress({ store, runnerName: MAIL_RUNNER, local: () => leadership.leading() });
  const runner = createProjectionRunner({
    name: MAIL_RUNNER,
    eventStore,
    store,
    projections: [mailRecipientsProjection, mailItemsProjection, reactor, attendeeMail, watcherMail, mailErasureProjection],
    progress,
    logger,
    // Outbox entries go to the queue as they are written, and a rebuild would mail again.
    pages: 'direct',
    rebuilds: false,
    onStopped: () => void leadership.stopped(),
  });

  let sweeping: Promise<void> | null = null;
  /** Enqueues every queued entry; BullMQ ignores ids it already holds, and a sent entry is skipped by its worker. */
  function sweep(): Promise<void> {
    sweeping ??= (async () => {
      try {
        const ids = await queuedIds(mailOutbox(store));
        if (ids.length > 0) await enqueue(ids);
      } catch (error) {
        logger.error({ err: error }, 'mail sweep failed; the next one retries');
      } finally {
        sweeping = null;
      }
    })();
    return sweeping;
  }

  async function schedule() {
    try {
      await mail.scheduleDigests(config.digestSchedule);
    } catch (error) {
      logger.error({ err: error }, 'could not schedule digests; retried when Redis is ready again');
    }
  }

  const onReady = () => {
    void schedule();
    void sweep();
  };
  let timer: NodeJS.Timeout | null = null;

  const leadership = createLeadership({
    pool,
    lockKey: MAIL_RUNNER_LOCK,
    what: 'the mail runner',
    logger,
    async lead() {
      await runner.start();
      // Once leading (the lock is this process's only when lead() has returned).
      setImmediate(pruneWhenDue);
    },
    follow: () => runner.stop(),
  });

  let stopping = false;
  /** Deletes the mail sent longer ago than the retention; returns how many entries went. */
  async function pruneOutbox(now = new Date()): Promise<number> {
    return pruneSentEntries(mailOutbox(store), {
      sentBefore: new Date(now.getTime() - config.mailOutboxRetentionDays * DAY_MS),
      keepDigestPeriods: await digestPeriodsInUse(store),
      stopped: () => stopping,
    });
  }

  let pruning: Promise<void> | null = null;
  let prunedAt = 0;
  /**
   * Prunes when this process runs the mail runner and its last prune is an hour old: on taking the runner (at start or
   * on taking over), then from the sweeper's timer. One runner prunes for all.
   */
  function pruneWhenDue() {
    if (!leadership.leading() || pruning || Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    pruning = (async () => {
      try {
        const deleted = await pruneOutbox();
        if (deleted > 0) logger.info({ deleted, retentionDays: config.mailOutboxRetentionDays }, 'pruned sent mail from the outbox');
      } catch (error) {
        logger.error({ err: error }, 'outbox prune failed; the next one retries');
      } finally {
        pruning = null;
      }
    })();
  }

  return {
    runner,
    progress,
    /** One digest run for the period `now` falls in (what the schedulers' jobs call; tests call it with a fixed `now`). */
    runDigest: async (frequency: DigestFrequency, now = new Date()) =>
      runDigest({
        store,
        frequency,
        now,
        timeZone: await siteTimeZone(),
        linkSecret: config.subscriptionLinkSecret,
        reached: () => progress.fresh(0),
        enqueue,
      }),
    sweep,
    pruneOutbox,
    delivery(transport: Transport) {
      return createDelivery({
        store,
        transport,
        handle,
        from: config.mailFrom,
        publicUrl: config.publicUrl,
        linkSecret: config.subscriptionLinkSecret,
        timeZone: siteTimeZone,
        replyDomain: config.inbound.replyDomain,
      });
    },
    /** Whether this process runs the mail runner (holds the lock). */
    leading: () => leadership.leading(),
    async start() {
      stopping = false;
      await leadership.start();
      await schedule();
      await sweep();
      // Stopped meanwhile: stop() has cleared no timer yet, and one set now would sweep on after it.
      if (stopping) return;
      redis.on('ready', onReady);
      timer = setInterval(() => {
        void sweep();
        pruneWhenDue();
      }, SWEEP_EVERY_MS);
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      redis.off('ready', onReady);
      await leadership.stop();
      if (pruning) await namedIfSlow(logger, 'the outbox prune', pruning);
      if (sweeping) await namedIfSlow(logger, 'the outbox sweep', sweeping);
    },
  };
}

export type SubscriptionMailService = ReturnType<typeof createSubscriptionMail>;

/** The worker's view: deliver outbox entries and run digests. */
export function workerJobs(service: SubscriptionMailService, transport: Transport): SubscriptionMail {
  return { deliver: service.delivery(transport), runDigest: (frequency) => service.runDigest(frequency) };
}
