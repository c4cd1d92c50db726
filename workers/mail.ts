/**
 * The mail queue (BullMQ) and its worker. A job's id is chosen by the caller from
 * what caused the mail (an event id and recipient, a token hash), so enqueuing the
 * same mail twice while the job is kept adds nothing. Which subscription mails must
 * go out is decided from the event log and recorded durably; the queue only
 * delivers (Redis is not durable here).
 */
import type { Redis } from 'ioredis';
import { Queue, Worker, type Job } from 'bullmq';
import * as v from 'valibot';
import { MailMessageSchema, type MailMessage } from '../server/mail/message';
import type { Transport } from '../server/mail/transport';

export const MAIL_QUEUE = 'mail';

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
     * the job is kept (see removeOnComplete/removeOnFail) adds nothing.
     */
    async enqueue(jobId: string, message: MailMessage) {
      await queue.add('send', message, {
        jobId: bullJobId(jobId),
        attempts: 6,
        backoff: { type: 'exponential', delay: backoffMs },
        removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
        removeOnFail: { age: 30 * 24 * 3600, count: 10_000 },
      });
    },
    close: () => queue.close(),
  };
}

export type MailQueue = ReturnType<typeof createMailQueue>;

export function startMailWorker(options: { connection: Redis; prefix: string; transport: Transport; from: string; concurrency?: number }) {
  return new Worker(
    MAIL_QUEUE,
    async (job: Job) => {
      const message = v.parse(MailMessageSchema, job.data);
      await options.transport.sendMail({ from: options.from, ...message });
    },
    // BullMQ duplicates a given client for its blocking reads and closes those duplicates itself; a duplicate made
    // here would be one more connection that nothing closes.
    { connection: options.connection, prefix: `${options.prefix}:bull`, concurrency: options.concurrency ?? 5 },
  );
}
