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

export interface MailQueueOptions {
  connection: Redis;
  prefix: string;
  /** First retry delay; doubles on each attempt. */
  backoffMs?: number;
}

export function createMailQueue({ connection, prefix, backoffMs = 2000 }: MailQueueOptions) {
  const queue = new Queue(MAIL_QUEUE, { connection, prefix: `${prefix}:bull` });
  return {
    queue,
    /** BullMQ reserves ':' in custom job ids. */
    async enqueue(jobId: string, message: MailMessage) {
      await queue.add('send', message, {
        jobId: jobId.replaceAll(':', '_'),
        attempts: 6,
        backoff: { type: 'exponential', delay: backoffMs },
        removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
        removeOnFail: { age: 30 * 24 * 3600 },
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
    { connection: options.connection.duplicate({ maxRetriesPerRequest: null }), prefix: `${options.prefix}:bull`, concurrency: options.concurrency ?? 5 },
  );
}
