/**
 * Subscription mail fan-out: one blog publication to 10,000 immediate subscribers, from the event to the last mail
 * received by an SMTP sink in this process, through the whole path the workers role runs (mail runner, outbox,
 * BullMQ, claim, react-email rendering, pooled nodemailer). Beside it, in the same run and alternated with it round
 * by round: bare nodemailer sends of the same number of similar, pre-rendered mails to the same sink, with the same
 * pool and concurrency. And the cost
 * a RecordDelivery event per mail would add (one event-store append each), which decided to log item and digest
 * mail in the outbox only.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import nodemailer from 'nodemailer';
import { pino } from 'pino';
import { loadConfig } from '../../platform/config';
import { createServices } from '../../main/services';
import { createCommandHandler } from '../../platform/command-handler';
import { hashSubscriptionToken, subscriptionToken } from '../../platform/mail/link-tokens';
import { streamName } from '../../shared/streams';
import { subscriptionDecider } from '../../shared/subscriptions/subscription-stream';
import { blogPostDecider } from '../../shared/blog/blog-stream';
import { renderMail } from '../../workers/subscriptions/templates';
import { createTestDatabase, testRedisPrefix } from '../support/database';
import { printTable } from './report';

const SUBSCRIBERS = 10_000;
const CONCURRENCY = 10;
const RECORDED_DELIVERIES = 1_000;
const ROUNDS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** An SMTP server that only counts what it receives. */
async function startSink() {
  let received = 0;
  let waiter: { count: number; resolve: () => void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += session.envelope.rcptTo.length;
        if (waiter && received >= waiter.count) waiter.resolve();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    reset: () => (received = 0),
    until: (count: number) => new Promise<void>((resolve) => (received >= count ? resolve() : (waiter = { count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function run() {
  const database = await createTestDatabase();
  const sink = await startSink();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_PREFIX: testRedisPrefix(),
    ROLES: 'workers',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    MAIL_CONCURRENCY: String(CONCURRENCY),
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'https://community.example.org',
  });
  const services = await createServices(config, pino({ level: 'warn' }));
  // No read models run here, so commands must not wait for them.
  const handle = createCommandHandler({ eventStore: services.eventStore, progress: { waitFor: async () => true } });
  try {
    const metadata = () => ({ now: new Date(), actor: { id: randomUUID(), role: 'member' as const } });
    const ids = Array.from({ length: SUBSCRIBERS }, () => randomUUID());
    await inParallel(ids, 20, (id) =>
      handle(subscriptionDecider, streamName('subscription', id), {
        type: 'RequestSubscription',
        data: {
          id,
          email: `reader-${id}@example.org`,
          subscriptionType: 'all',
          frequency: 'immediate',
          tokenHash: hashSubscriptionToken(subscriptionToken(config.subscriptionLinkSecret, id)),
        },
        metadata: metadata(),
      }),
    );
    await services.startWorkers();
    const { subscriptionMail } = services;
    await subscriptionMail.progress.waitFor(await services.eventStore.headPosition(), 600_000);

    // The fan-out, from a publication to the last mail in the sink, alternated with the baseline: the same number of
    // similar mails, rendered once beforehand, sent bare with the same pool and concurrency. Medians of the rounds,
    // since one round of either swings with whatever else the two cores are doing.
    const links = {
      site: `${config.publicUrl}/`,
      unsubscribe: `${config.publicUrl}/unsubscribe/token`,
      manage: `${config.publicUrl}/subscription-settings`,
    };
    const fanOuts: number[] = [];
    const bares: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sink.reset();
      const started = performance.now();
      const blogId = randomUUID();
      await handle(blogPostDecider, streamName('blog', blogId), {
        type: 'CreateBlogPost',
        data: {
          id: blogId,
          title: `The tower at ${100 + round}`,
          excerpt: 'A century of the tower on the ridge.',
          content: '<p>A century.</p>',
          tags: [],
          isPublished: true,
          isPinned: false,
          isFeatured: false,
        },
        metadata: { now: new Date(), actor: { id: randomUUID(), role: 'staff' } },
      });
      await sink.until(SUBSCRIBERS);
      fanOuts.push(SUBSCRIBERS / ((performance.now() - started) / 1000));

      sink.reset();
      const mail = await renderMail(
        {
          kind: 'blog',
          post: {
            title: `The tower at ${100 + round}`,
            excerpt: 'A century of the tower on the ridge.',
            url: `${config.publicUrl}/blog/${blogId}`,
          },
        },
        links,
      );
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: sink.port,
        secure: false,
        ignoreTLS: true,
        pool: true,
        maxConnections: 5,
      });
      const bareStarted = performance.now();
      await inParallel(ids, CONCURRENCY, (id) =>
        transport.sendMail({
          from: config.mailFrom,
          to: `reader-${id}@example.org`,
          ...mail,
          headers: {
            'List-Unsubscribe': `<${config.publicUrl}/api/unsubscribe/token>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }),
      );
      await sink.until(SUBSCRIBERS);
      bares.push(SUBSCRIBERS / ((performance.now() - bareStarted) / 1000));
      transport.close();
    }
    const fanOut = median(fanOuts);
    const bare = median(bares);

    // What one EmailDelivered event per mail would cost: RecordDelivery through the command handler.
    const recordStarted = performance.now();
    await inParallel(ids.slice(0, RECORDED_DELIVERIES), CONCURRENCY, (id) =>
      handle(subscriptionDecider, streamName('subscription', id), {
        type: 'RecordDelivery',
        data: { kind: 'item', itemKey: `blog:recorded` },
        metadata: { now: new Date(), actor: null },
      }),
    );
    const recorded = RECORDED_DELIVERIES / ((performance.now() - recordStarted) / 1000);

    printTable([
      {
        figure: `fan-out to ${SUBSCRIBERS.toLocaleString('en-US')} subscribers`,
        value: fanOut,
        unit: 'mails/s',
        baseline: 'bare nodemailer, same pool',
        baselineValue: bare,
      },
      { figure: 'RecordDelivery appends', value: recorded, unit: 'per s', baseline: 'fan-out mails', baselineValue: fanOut },
    ]);
  } finally {
    await services.close();
    await sink.close();
    await database.drop();
  }
}
