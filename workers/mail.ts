/**
 * The mail queue (BullMQ) and its worker. A job's id is chosen by the caller from
 * what caused the mail (an event id and recipient, a token hash), so enqueuing the
 * same mail twice while the job is kept adds nothing. Which subscription mails must
 * go out is decided from the event log and recorded durably; the queue only
 * delivers (Redis is not durable here).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import * as v from 'valibot';
import { MailMessageSchema, type MailMessage } from '../platform/mail/message';
import type { Transport } from '../platform/mail/transport';
import type { Deliver } from './subscriptions/delivery';
import type { DigestFrequency } from './subscriptions/digests';

export const MAIL_QUEUE = 'mail';

/** Job names: a ready message (sign-in links), an outbox entry of a subscription mail, a digest run. */
const SEND = 'send';
const OUTBOX = 'outbox';
const DIGEST = 'digest';

/** A batch of outbox entries; jobs enqueued before batching carried one entry. */
const OutboxJobSchema = v.union([v.object({ outboxIds: v.array(v.string()) }), v.object({ outboxId: v.string() })]);
const outboxIdsOf = (data: unknown) => {
  const job = v.parse(OutboxJobSchema, data);
  return 'outboxIds' in job ? job.outboxIds : [job.outboxId];
};
const DigestJobSchema = v.object({ frequency: v.picklist(['daily', 'weekly']) });

/**
 * BullMQ refuses ':' in custom job ids. Escaping '%' first keeps the mapping one-to-one, so two different
 * causes can never share a job id (and one of their mails be dropped as a duplicate).
 */
function bullJobId(jobId: string): string {
  return jobId.replaceAll('%', '%25').replaceAll(':', '%3A');
}

export interface MailQueueOptions {
  /** Created with `maxRetriesPerRequest: null`, as BullMQ requires of a client a worker blocks on. */
  connection: Redis;
  prefix: string;
  /** First retry delay; doubles on each attempt. */
  backoffMs?: number;
}

export function createMailQueue({ connection, prefix, backoffMs = 2000 }: MailQueueOptions) {
  const queue = new Queue(MAIL_QUEUE, { connection, prefix: `${prefix}:bull` });
  return {
    queue,
    /**
     * `jobId` names what caused the mail (e.g. `<eventId>:<recipient>`); a second enqueue with the same id while
     * the job waits adds nothing. The message holds an address, a name and often a sign-in link: a sent one is
     * removed at once, and one that failed for good keeps its record (monitoring counts it) but not its message.
     */
    async enqueue(jobId: string, message: MailMessage) {
      await queue.add(SEND, message, {
        jobId: bullJobId(jobId),
        attempts: SEND_ATTEMPTS,
        backoff: { type: 'exponential', delay: backoffMs },
        removeOnComplete: true,
        removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
      });
    },
    /**
     * Enqueues outbox entries (see workers/subscriptions/outbox.ts), MAIL_BATCH to a job. A job's id names its
     * entries, so the same batch enqueued twice while queued is one job; a batch enqueued again in another grouping
     * (the sweeper) finds its entries claimed or finished and sends nothing twice. Jobs are removed once done or
     * failed: the outbox entry's status is what prevents a second send, and a kept failed job would block the
     * sweeper from enqueuing the entries again.
     */
    async enqueueOutbox(outboxIds: string[]) {
      const jobs = [];
      for (let i = 0; i < outboxIds.length; i += MAIL_BATCH) {
        const batch = outboxIds.slice(i, i + MAIL_BATCH);
        jobs.push({
          name: OUTBOX,
          data: { outboxIds: batch },
          opts: {
            jobId: `outbox-${createHash('sha256').update(batch.join('\n')).digest('hex').slice(0, 32)}`,
            attempts: 8,
            backoff: { type: 'exponential', delay: backoffMs },
            removeOnComplete: true,
            removeOnFail: true,
          },
        });
      }
      for (let i = 0; i < jobs.length; i += ADD_BULK) await queue.addBulk(jobs.slice(i, i + ADD_BULK));
    },
    /** Daily and weekly digest runs as BullMQ job schedulers (cron in the site's time zone); upserting is idempotent. */
    async scheduleDigests(schedule: { daily: string; weekly: string; timeZone: string }) {
      for (const frequency of ['daily', 'weekly'] as const) {
        await queue.upsertJobScheduler(
          `digest-${frequency}`,
          { pattern: schedule[frequency], tz: schedule.timeZone },
          {
            name: DIGEST,
            data: { frequency },
            opts: { attempts: 3, backoff: { type: 'exponential', delay: backoffMs }, removeOnComplete: 100, removeOnFail: 100 },
          },
        );
      }
    },
    close: () => queue.close(),
  };
}

const ADD_BULK = 500;
const SEND_ATTEMPTS = 6;
/**
 * Outbox entries per job: a fan-out's reads, claims and BullMQ round trips are paid per batch, its mails sent side by
 * side through the transport's pool. Small enough that several worker processes share a fan-out.
 */
export const MAIL_BATCH = 50;

export type MailQueue = ReturnType<typeof createMailQueue>;

/** What the worker does with subscription jobs; without it, only ready messages are sent. */
export interface SubscriptionMail {
  deliver: Deliver;
  runDigest(frequency: DigestFrequency): Promise<unknown>;
}

export interface MailWorkerOptions {
  connection: Redis;
  prefix: string;
  transport: Transport;
  from: string;
  concurrency?: number;
  subscriptionMail?: SubscriptionMail;
}

export function startMailWorker(options: MailWorkerOptions) {
  const worker: Worker = new Worker(
    MAIL_QUEUE,
    async (job: Job, token?: string) => {
      if (job.name === OUTBOX && options.subscriptionMail) {
        const { later, failed, ...counts } = await options.subscriptionMail.deliver(
          outboxIdsOf(job.data),
          () => worker.closing !== undefined,
        );
        if (failed) {
          // The relay failed for some: the job's retry (with backoff) takes them up, with those to look at later.
          await job.updateData({ outboxIds: [...failed.outboxIds, ...(later?.outboxIds ?? [])] });
          throw failed.error;
        }
        if (later) {
          // Another sender holds them, or their time has not come: look again then, without spending an attempt.
          await job.updateData({ outboxIds: later.outboxIds });
          await job.moveToDelayed(later.until + 100, token);
          throw new DelayedError();
        }
        return counts;
      }
      if (job.name === DIGEST && options.subscriptionMail)
        return options.subscriptionMail.runDigest(v.parse(DigestJobSchema, job.data).frequency);
      const message = v.parse(MailMessageSchema, job.data);
      await options.transport.sendMail({ from: options.from, ...message });
      return 'sent';
    },
    // BullMQ duplicates a given client for its blocking reads and closes those duplicates itself; a duplicate made
    // here would be one more connection that nothing closes.
    {
      connection: options.connection,
      prefix: `${options.prefix}:bull`,
      concurrency: options.concurrency ?? 5,
      // A worker that died mid-job (kill -9, a crashed machine) has its jobs picked up again within about 3-5 s
      // instead of BullMQ's default 30-60 s: its lock lapses 3 s after its last renewal (every 1.5 s) and another
      // worker's stalled check, every second, moves the job back to the queue. Two workers never send one mail at once
      // even when a busy worker loses a lock it still needs: the outbox entry's own claim decides (delivery.ts).
      lockDuration: 3_000,
      stalledInterval: 1_000,
      // A worker starved of CPU for over 3 s (a loaded machine) loses its lock as a dead one does. BullMQ fails a job
      // for good once it has stalled more than this many times (its default is once); the claims make a job picked up
      // again safe, so it is picked up again.
      maxStalledCount: 20,
    },
  );
  // A message that failed for good keeps no address, name or link in Redis: only that it failed, and why.
  worker.on('failed', (job) => {
    if (job?.name === SEND && job.attemptsMade >= (job.opts.attempts ?? 1)) job.updateData({ forgotten: true }).catch(() => undefined);
  });
  return worker;
}
