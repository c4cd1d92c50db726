/**
 * Publishes scheduled blog posts when their time comes (docs/domain/blog.md#scheduling). The read model is the plan:
 * every tick asks it for posts whose `publishAt` has passed and issues `PublishScheduledBlogPost` for each, so a
 * post whose time passed while the site was down is published at the first tick after start-up, and nothing is
 * held in memory or in Redis that a crash could lose. Safe in any number of processes and to repeat: the decider
 * publishes a post once, and only while it is still scheduled for that time (a changed or cancelled schedule, or a
 * post published meanwhile, is a no-op). Subscribers are mailed from the `BlogPostPublished` it records, as for a
 * post published by hand.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { CommandHandler } from '../../platform/command-handler';
import type { Logger } from '../../platform/logger';
import { blogPostDecider } from '../../shared/blog/blog-stream';
import { streamName } from '../../shared/streams';
import { blogPosts } from './blog';

export interface ScheduleDependencies {
  store: DocumentStore;
  handle: CommandHandler;
  now(): Date;
}

/** Posts published in one tick at most; the next tick takes the rest. */
const BATCH = 50;

/** One tick: publishes every post whose time has come; answers how many it published. */
export async function publishDuePosts({ store, handle, now }: ScheduleDependencies): Promise<number> {
  const due = await blogPosts(store).find(
    { isPublished: false, publishAt: { $lte: now().toISOString() } },
    { sort: { publishAt: 1, _id: 1 }, limit: BATCH, fields: ['publishAt'] },
  );
  let published = 0;
  for (const post of due) {
    const publishAt = post.publishAt;
    if (!publishAt) continue;
    const { events } = await handle(blogPostDecider, streamName('blog', post._id), {
      type: 'PublishScheduledBlogPost',
      data: { publishAt },
      metadata: { now: now(), actor: null },
    });
    published += events.length;
  }
  return published;
}

/** Ticks now and then every `everyMs` (a second: a post goes out at most that late), until stopped. */
export function startBlogSchedule(dependencies: ScheduleDependencies, logger: Logger, everyMs = 1_000) {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const tick = () => {
    // A slow tick (a store restarting) is not overlapped by the next.
    if (busy) return;
    busy = true;
    running = publishDuePosts(dependencies)
      .then((published) => published > 0 && logger.info({ published }, 'scheduled blog posts published'))
      .catch((error: unknown) => logger.error({ err: error }, 'blog schedule failed'))
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
