/** Subscriptions, publications and a counting SMTP server for the mail delivery tests. */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { expect } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { Actor } from '../../../shared/domain';
import { streamName } from '../../../shared/streams';
import { subscriptionDecider } from '../../../shared/subscriptions/subscription-stream';
import type { Frequency, SubscriptionType } from '../../../shared/subscriptions/constants';
import { blogPostDecider } from '../../../shared/blog/blog-stream';
import { postDecider } from '../../../shared/feed/post-stream';
import { calendarEventDecider } from '../../../shared/events/event-stream';
import { EventSchema } from '../../../shared/events/schemas';
import { createCommandHandler } from '../../../platform/command-handler';
import type { EventStore } from '../../../platform/event-store/port';
import type { Services } from '../../../main/services';
import { startTestSite, type TestSite } from '../../support/site';
import { mailOutbox, outboxId, type OutboxCause } from '../../../workers/subscriptions/outbox';
import { hashSubscriptionToken, mailAddressKey, subscriptionToken } from '../../../platform/mail/link-tokens';

export const staff: Actor = { id: randomUUID(), role: 'staff' };

/** A command handler that does not wait for read models: these tests watch the mail runner instead. */
export function commands(eventStore: EventStore) {
  return createCommandHandler({ eventStore, progress: { waitFor: async () => true } });
}
export type Commands = ReturnType<typeof commands>;

export interface TestSubscription {
  id: string;
  email: string;
  token: string;
  actor: Actor | null;
}

export async function subscribe(
  handle: Commands,
  linkSecret: string,
  /** `member`: who subscribes (a new member unless given); ignored for a guest. */
  options: { email: string; type: SubscriptionType; frequency: Frequency; guest?: boolean; isActive?: boolean; member?: Actor },
): Promise<TestSubscription> {
  const id = randomUUID();
  const token = subscriptionToken(linkSecret, id);
  const actor: Actor | null = options.guest ? null : (options.member ?? { id: randomUUID(), role: 'member' });
  await handle(subscriptionDecider, streamName('subscription', id), {
    type: 'RequestSubscription',
    data: {
      id,
      email: options.email,
      subscriptionType: options.type,
      frequency: options.frequency,
      tokenHash: hashSubscriptionToken(token),
      isActive: options.isActive ?? true,
    },
    metadata: { now: new Date(), actor },
  });
  return { id, email: options.email, token, actor };
}

/** The cause of item mail to a subscription's address. */
export const itemCause = (
  linkSecret: string,
  subscription: Pick<TestSubscription, 'email'>,
  content: 'blog' | 'post',
  itemId: string,
): OutboxCause => ({
  kind: 'item',
  content,
  itemId,
  address: mailAddressKey(linkSecret, subscription.email),
});

/** The outbox id of item mail to a subscription's address (one per address and item). */
export const itemEntryId = (linkSecret: string, subscription: Pick<TestSubscription, 'email'>, content: 'blog' | 'post', itemId: string) =>
  outboxId('', itemCause(linkSecret, subscription, content, itemId));

export async function confirm(handle: Commands, subscription: TestSubscription) {
  await handle(subscriptionDecider, streamName('subscription', subscription.id), {
    type: 'ConfirmSubscription',
    data: { tokenHash: hashSubscriptionToken(subscription.token) },
    metadata: { now: new Date(), actor: null },
  });
}

export async function unsubscribe(handle: Commands, subscription: TestSubscription) {
  await handle(subscriptionDecider, streamName('subscription', subscription.id), {
    type: 'Unsubscribe',
    data: { via: 'link', tokenHash: hashSubscriptionToken(subscription.token) },
    metadata: { now: new Date(), actor: null },
  });
}

export async function publishBlogPost(handle: Commands, title: string, excerpt = `About ${title}`, author: Actor = staff): Promise<string> {
  const id = randomUUID();
  await handle(blogPostDecider, streamName('blog', id), {
    type: 'CreateBlogPost',
    data: { id, title, excerpt, content: `<p>${excerpt}</p>`, tags: [], isPublished: true, isPinned: false, isFeatured: false },
    metadata: { now: new Date(), actor: author },
  });
  return id;
}

/** A member's post (a new member's unless `author` is given), then its approval by staff. */
export async function approvedFeedPost(
  handle: Commands,
  content: string,
  author: Actor = { id: randomUUID(), role: 'member' },
): Promise<string> {
  const id = randomUUID();
  const stream = streamName('post', id);
  await handle(postDecider, stream, {
    type: 'SubmitPost',
    data: { id, content, mediaType: null, mediaUrl: null, mediaTitle: null, tags: [] },
    metadata: { now: new Date(), actor: author },
  });
  await handle(postDecider, stream, { type: 'ApprovePost', data: {}, metadata: { now: new Date(), actor: staff } });
  return id;
}

/** A public event scheduled by staff (approved at once); `organizer` must be staff or an admin for that. */
export async function scheduleEvent(handle: Commands, title: string, startDate: string, organizer: Actor = staff): Promise<string> {
  const id = randomUUID();
  const endDate = new Date(new Date(startDate).getTime() + 3600_000).toISOString();
  // The form's defaults for every other field, as the server fills them; no upload shown with it.
  const { mediaId: _none, ...fields } = v.parse(EventSchema, { title, location: 'Chicago', startDate, endDate });
  await handle(calendarEventDecider, streamName('event', id), {
    type: 'ScheduleEvent',
    data: { id, fields },
    metadata: { now: new Date(), actor: organizer },
  });
  return id;
}

export interface ReceivedMail {
  to: string;
  messageId: string;
  subject: string;
  headers: Map<string, string>;
  raw: string;
  text: string;
  html: string;
}

const REGISTRATION_LINK = /\/api\/auth\/register\/confirm\//;

/**
 * An SMTP server that keeps every message in memory, for counting per recipient. `refuse` names addresses
 * answered with a permanent 550 (a bounce); `deferOnce` names addresses refused once with a temporary 451;
 * `delayMs` slows every message down.
 */
export async function startCountingSmtp(
  options: { refuse?: (address: string) => boolean; deferOnce?: (address: string) => boolean; delayMs?: number } = {},
) {
  const received: ReceivedMail[] = [];
  const registrations: ReceivedMail[] = [];
  const deferred = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(error);
        return;
      }
      if (options.deferOnce?.(address.address) && !deferred.has(address.address)) {
        deferred.add(address.address);
        callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      // A sender killed mid-message closes the stream with an error: that message was never received.
      receive(stream, session).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  async function receive(stream: AsyncIterable<unknown>, session: { envelope: { rcptTo: { address: string }[] } }) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    // A relay that takes a moment per message, so that a fan-out can be interrupted half-way.
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const parsed = await PostalMime.parse(raw);
    // registerMember's link to finish signing up (tests/support/http.ts) is kept apart: what is counted is the mail under test.
    const kept = REGISTRATION_LINK.test(parsed.text ?? '') ? registrations : received;
    for (const rcpt of session.envelope.rcptTo) {
      kept.push({
        to: rcpt.address,
        messageId: parsed.messageId ?? '',
        subject: parsed.subject ?? '',
        headers: new Map(parsed.headers.map((header) => [header.key, header.value])),
        raw: raw.toString('utf8'),
        text: parsed.text ?? '',
        html: parsed.html ?? '',
      });
    }
  }
  // A sender killed mid-message resets its connection; smtp-server reports that as an 'error' event, which must be heard.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    /** Links to finish signing up, which registering an account mails (not in `received`). */
    registrations,
    to: (address: string) => received.filter((mail) => mail.to === address),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type CountingSmtp = Awaited<ReturnType<typeof startCountingSmtp>>;

/**
 * A whole site (every role, started with `env`) mailing through SMTP_URL to a counting SMTP server of its own (started
 * with `smtpOptions`), with a command handler and the site's subscription link secret.
 */
export async function startMailingSite(env: Record<string, string> = {}, smtpOptions: Parameters<typeof startCountingSmtp>[0] = {}) {
  const smtp = await startCountingSmtp(smtpOptions);
  try {
    const site = await startTestSite({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...env });
    return { smtp, site, handle: commands(site.services.eventStore), secret: site.services.config.subscriptionLinkSecret };
  } catch (error) {
    await smtp.close();
    throw error;
  }
}

/** Closes what startMailingSite started (either may be missing: a start that failed). */
export async function closeMailingSite(site: TestSite | undefined, smtp: CountingSmtp | undefined) {
  await site?.close();
  await smtp?.close();
}

/**
 * Stops the site's mail runner once `second` (another worker process of the site) has started its own, and waits for
 * `second` to take the lead; `then` runs meanwhile. After it, `second` stops and closes and the site's runner starts again.
 */
export async function afterMailRunnerTakeOver(site: TestSite, second: Services, then: () => Promise<void>) {
  try {
    await second.subscriptionMail.start();
    expect(second.subscriptionMail.leading()).toBe(false);
    await site.services.subscriptionMail.stop();
    await expect.poll(() => second.subscriptionMail.leading(), { timeout: 10_000 }).toBe(true);
    await then();
  } finally {
    await second.subscriptionMail.stop();
    await second.close();
    await site.services.subscriptionMail.start();
  }
}

/**
 * Waits until the mail runner has handled every event appended so far and the outbox has nothing due left to send. The
 * last position is read from the table itself: the store's head stops at the server-wide transaction horizon, which
 * another test database's long transaction on the same server holds back, and the wait would end too early.
 */
export async function allDelivered({ subscriptionMail, pool, store }: Pick<Services, 'subscriptionMail' | 'pool' | 'store'>) {
  const { rows } = await pool.query<{ position: string | null }>('SELECT max(position) AS position FROM events');
  expect(await subscriptionMail.progress.waitFor(Number(rows[0]!.position ?? 0), 20_000)).toBe(true);
  // Mail scheduled for later (reminders) is not due: it waits, as it should.
  const due = () => ({ status: 'queued' as const, $or: [{ sendAt: { $exists: false } }, { sendAt: { $lte: new Date().toISOString() } }] });
  await expect.poll(() => mailOutbox(store).countDocuments(due()), { timeout: 15_000, interval: 50 }).toBe(0);
}
