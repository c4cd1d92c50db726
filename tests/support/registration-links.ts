/**
 * The links that finish signing up (docs/domain/members.md#registration), as each test site of this process queued
 * them for mailing, by the site's address and the addressee. Registration answers the same for every address and mails
 * the link, so `registerMember` takes it from here: it works whatever the site mails through (the development sink, a
 * counting SMTP server, a relay that refuses) and before any worker has sent it. It listens to the site's own mail
 * queue (BullMQ's `waiting` event of the queue the route enqueued on): nothing of the site is changed for tests.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

const REGISTRATION_LINK = /https?:\/\/[^\s"'<>]+\/api\/auth\/register\/confirm\/[A-Za-z0-9_-]+/;

/** The development sink's list in Redis (platform/mail/smtp-sink.ts), when the site's mail goes there. */
export interface SinkList {
  redis: Redis;
  key: string;
}

interface SiteLinks {
  /** addressee → links in the order they were queued. */
  links: Map<string, string[]>;
  sink: SinkList | null;
}
/** By the site's origin. */
const queued = new Map<string, SiteLinks>();

const originOf = (url: string) => new URL(url).origin;

/**
 * Starts keeping the registration links `queue` is given for the site at `url`; the returned function stops it.
 * `sink`: where the site's mail is caught, when a worker of the site delivers it to the development sink.
 */
export function keepRegistrationLinks(url: string, queue: Queue, sink: SinkList | null): () => void {
  const links = new Map<string, string[]>();
  const site: SiteLinks = { links, sink };
  queued.set(originOf(url), site);
  const heard = (job: { name: string; data: unknown }) => {
    if (job.name !== 'send') return;
    const { to, text } = job.data as { to?: string; text?: string };
    const link = text?.match(REGISTRATION_LINK)?.[0];
    if (!to || !link) return;
    const address = to.toLowerCase();
    links.set(address, [...(links.get(address) ?? []), link]);
  };
  queue.on('waiting', heard);
  return () => {
    queue.off('waiting', heard);
    if (queued.get(originOf(url)) === site) queued.delete(originOf(url));
  };
}

/** How many registration links were queued for `email` on the site at `url` so far: pass it to registrationLinkFor. */
export function registrationLinksQueued(url: string, email: string): number {
  return queued.get(originOf(url))?.links.get(email.trim().toLowerCase())?.length ?? 0;
}

/**
 * The first registration link queued for `email` on the site at `url` after the `after` queued before (see
 * registrationLinksQueued; an address registered again has older, spent links). Registration answers before it
 * queues the mail, so this waits for it; throws when the site is not one this process started.
 */
export async function registrationLinkFor(url: string, email: string, after = 0, timeoutMs = 10_000): Promise<string> {
  const links = queued.get(originOf(url))?.links;
  if (!links) throw new Error(`No test site of this process at ${url}: its registration links cannot be read`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const link = links.get(email.trim().toLowerCase())?.[after];
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`No registration link was queued for ${email} in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Takes the mail that carried `link` out of the site's development sink once it arrives there (at most `timeoutMs`),
 * as its reader would have dealt with it: registration mailed nothing before it needed a link, and tests that look
 * for a member's mail (often by addressee alone) look for what came after. Nothing to do when the site mails
 * elsewhere (SMTP_URL).
 */
export async function takeRegistrationMail(url: string, link: string, timeoutMs = 30_000): Promise<void> {
  const sink = queued.get(originOf(url))?.sink;
  if (!sink) return;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (sink.redis.status !== 'ready') return; // the site closed meanwhile
    const caught = (await sink.redis.lrange(sink.key, 0, -1)).find((json) => json.includes(link));
    if (caught) {
      await sink.redis.lrem(sink.key, 1, caught);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
