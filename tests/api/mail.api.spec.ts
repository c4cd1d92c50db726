/** The mail queue and worker against real Redis and a real SMTP server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { connect, createServer, type Server } from 'node:net';
import { createMailbox, startSmtpSink } from '../../platform/mail/smtp-sink';
import { createTransport } from '../../platform/mail/transport';
import { createMailQueue, startMailWorker } from '../../workers/mail';
import { testRedisPrefix } from '../support/database';

let redis: Redis;
beforeAll(() => {
  redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await redis.quit();
});

const message = (to: string) => ({
  to,
  subject: 'Reunion at WGN',
  text: 'See you there',
  html: '<p>See you there</p>',
  headers: { 'List-Unsubscribe': '<https://example.org/api/unsubscribe/abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
});

describe('development SMTP sink', () => {
  it('outlives a sender that drops its connection mid-conversation, and keeps catching mail', async () => {
    const prefix = testRedisPrefix();
    const mailbox = createMailbox(redis, prefix);
    const sink = await startSmtpSink(mailbox, 0);
    const transport = createTransport(undefined, sink.port);
    try {
      const socket = connect(sink.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('data', resolve));
      for (const line of ['EHLO crashed.example', 'MAIL FROM:<c@example.org>']) {
        socket.write(`${line}\r\n`);
        await new Promise((resolve) => socket.once('data', resolve));
      }
      // A TCP reset inside a transaction, as a sender killed mid-message leaves behind: smtp-server reports it as an 'error' event.
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await transport.sendMail({ from: 'c@example.org', ...message('eve@example.org') });
      expect((await mailbox.waitFor((m) => m.to.includes('eve@example.org'))).subject).toBe('Reunion at WGN');
    } finally {
      transport.close();
      await sink.close();
    }
  });
});

describe('mail queue', () => {
  it('sends each job once, whatever the number of times it was enqueued, with its headers', async () => {
    const prefix = testRedisPrefix();
    const mailbox = createMailbox(redis, prefix);
    const sink = await startSmtpSink(mailbox, 0);
    const queue = createMailQueue({ connection: redis, prefix });
    const worker = startMailWorker({
      connection: redis,
      prefix,
      transport: createTransport(undefined, sink.port),
      from: 'Community <c@example.org>',
    });
    try {
      await queue.enqueue('event-1:ada@example.org', message('ada@example.org'));
      await queue.enqueue('event-1:ada@example.org', message('ada@example.org'));
      await queue.enqueue('event-1:bob@example.org', message('bob@example.org'));
      await mailbox.waitFor((m) => m.to.includes('bob@example.org'));
      await mailbox.waitFor((m) => m.to.includes('ada@example.org'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const all = await mailbox.all();
      expect(all.map((m) => m.to[0]).sort()).toEqual(['ada@example.org', 'bob@example.org']);
      expect(all[0]!.headers['list-unsubscribe']).toBe('<https://example.org/api/unsubscribe/abc>');
      expect(all[0]!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      expect(all[0]!.from).toBe('c@example.org');
    } finally {
      await worker.close();
      await queue.close();
      await sink.close();
    }
  });

  it('keeps causes apart whose ids differ only where BullMQ needs escaping', async () => {
    const prefix = testRedisPrefix();
    const mailbox = createMailbox(redis, prefix);
    const sink = await startSmtpSink(mailbox, 0);
    const queue = createMailQueue({ connection: redis, prefix });
    const worker = startMailWorker({ connection: redis, prefix, transport: createTransport(undefined, sink.port), from: 'c@example.org' });
    try {
      const ids = ['digest:2026-11', 'digest_2026-11', 'digest%3A2026-11'];
      for (const id of ids) await queue.enqueue(id, { ...message('dan@example.org'), subject: id });
      await expect.poll(async () => (await mailbox.list()).length).toBe(3);
      expect((await mailbox.list()).map((m) => m.subject).sort()).toEqual([...ids].sort());
    } finally {
      await worker.close();
      await queue.close();
      await sink.close();
    }
  });

  it('retries a failed delivery with backoff until the SMTP server answers', async () => {
    const prefix = testRedisPrefix();
    const mailbox = createMailbox(redis, prefix);
    // Reserve a port, keep it closed while the first attempts fail, then start the sink on it.
    const reserved: Server = createServer();
    await new Promise<void>((resolve) => reserved.listen(0, '127.0.0.1', () => resolve()));
    const port = (reserved.address() as { port: number }).port;
    await new Promise<void>((resolve) => reserved.close(() => resolve()));

    const queue = createMailQueue({ connection: redis, prefix, backoffMs: 100 });
    const worker = startMailWorker({ connection: redis, prefix, transport: createTransport(undefined, port), from: 'c@example.org' });
    const failures: number[] = [];
    worker.on('failed', (job) => failures.push(job?.attemptsMade ?? 0));
    try {
      await queue.enqueue('retry-1', message('carol@example.org'));
      await expect.poll(() => failures.length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
      const sink = await startSmtpSink(mailbox, port);
      try {
        const mail = await mailbox.waitFor((m) => m.to.includes('carol@example.org'));
        expect(mail.subject).toBe('Reunion at WGN');
      } finally {
        await sink.close();
      }
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
