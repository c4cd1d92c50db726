/**
 * The development mailbox: an SMTP server inside the process that keeps every
 * message it receives (the newest 500) in Redis, as sent, where admins read them
 * in the app (tokens masked, see masked-links.ts) and tests wait for them. Used
 * when SMTP_URL is not set, and in production only when SMTP_SINK_IN_PRODUCTION
 * allows it; loopback only.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { CapturedMail, MailSummary } from '../../shared/mailbox/schemas';

const KEEP = 500;

export type { CapturedMail, MailSummary };

export function createMailbox(redis: Redis, prefix: string) {
  const key = `${prefix}:mailbox`;
  const all = async () => (await redis.lrange(key, 0, -1)).map((json) => JSON.parse(json) as CapturedMail);
  return {
    async add(mail: CapturedMail) {
      await redis
        .multi()
        .lpush(key, JSON.stringify(mail))
        .ltrim(key, 0, KEEP - 1)
        .exec();
    },
    /** Newest first. */
    async list(): Promise<MailSummary[]> {
      return (await all()).map(({ id, from, to, subject, date }) => ({ id, from, to, subject, date }));
    },
    async get(id: string) {
      return (await all()).find((mail) => mail.id === id) ?? null;
    },
    async all() {
      return all();
    },
    /** Drops every mail sent to this address: an erased member's (docs/domain/members.md#erasure). */
    async forget(address: string) {
      const wanted = address.toLowerCase();
      for (const json of await redis.lrange(key, 0, -1)) {
        const { to } = JSON.parse(json) as CapturedMail;
        if (to.some((recipient) => recipient.toLowerCase().includes(wanted))) await redis.lrem(key, 0, json);
      }
    },
    /** Resolves with the first captured mail that matches, polling the mailbox. */
    async waitFor(match: (mail: CapturedMail) => boolean, timeoutMs = 10_000): Promise<CapturedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await all()).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('No matching mail arrived in time');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

export type Mailbox = ReturnType<typeof createMailbox>;

/**
 * At most one `mailbox:changed` per this interval: every notice makes open mailbox pages refetch the list, and a
 * fan-out puts hundreds of mails a second into the sink.
 */
export const MAILBOX_NOTICE_EVERY_MS = 500;

/**
 * Calls `notify` at once, then at most once per `everyMs` while calls keep coming; a call during the wait is
 * answered when it ends, so the last mail of a burst is always announced.
 */
export function throttled(notify: () => void, everyMs: number) {
  let timer: NodeJS.Timeout | null = null;
  let waiting = false;
  const wait = () => {
    timer = setTimeout(() => {
      timer = null;
      if (!waiting) return;
      waiting = false;
      notify();
      wait();
    }, everyMs);
  };
  return {
    call() {
      if (timer) {
        waiting = true;
        return;
      }
      notify();
      wait();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = false;
    },
  };
}

export interface SmtpSinkOptions {
  /** Told after a mail was captured (throttled, see MAILBOX_NOTICE_EVERY_MS); the workers role publishes `mailbox:changed`. */
  onCaptured?: () => void;
}

export async function startSmtpSink(mailbox: Mailbox, port: number, { onCaptured }: SmtpSinkOptions = {}) {
  const captured = onCaptured ? throttled(onCaptured, MAILBOX_NOTICE_EVERY_MS) : null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    async onData(stream, session, callback) {
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        await mailbox.add({
          id: randomUUID(),
          from: parsed.from?.address ?? session.envelope.mailFrom?.toString() ?? '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: parsed.subject ?? '',
          date: new Date().toISOString(),
          headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
          text: parsed.text ?? '',
          html: parsed.html ?? '',
        });
        captured?.call();
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // smtp-server reports a sender's dropped connection (ECONNRESET) as an 'error' event; unheard, it would end the process.
  server.on('error', () => {});
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        captured?.cancel();
        server.close(() => resolve());
      }),
  };
}
