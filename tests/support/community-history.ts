/**
 * A large, believable event log for fault and replay tests, built quickly: the community's commands are decided
 * by the real deciders against states kept in memory, with a clock running over past days, and appended through
 * the event store port in big batches: each stream's events of one period in one append, several appends at once.
 * Members register (the first one becomes admin), change their profiles (bio included), passwords, e-mail addresses and roles and are suspended; they post,
 * like, unlike, share, report and comment (replying, editing, removing and reporting comments), and staff moderate, pin and delete; staff write, publish, pin, feature and delete
 * blog posts; members and staff schedule events, members edit theirs (back to moderation), staff approve, reject,
 * feature and delete them, and members RSVP, change their minds and withdraw; members and guests subscribe, confirm,
 * change frequency, pause, resume, bounce and unsubscribe; admins edit the site's pages; members save bookmarks, mark their notifications read, ask for and reset their private calendar feeds and turn reminders on or off. A command the site would refuse is left out, as the
 * decider refuses it; the choices follow a seeded generator, so a seed gives the same history.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { EventStore, NewEvent } from '../../platform/event-store/port';
import { type Actor, type CommandMetadata, type Decider, type DomainEvent, DomainError, type Role } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { memberDecider } from '../../shared/members/member-stream';
import { postDecider } from '../../shared/feed/post-stream';
import { normalizeTags } from '../../shared/feed/tags';
import { calendarEventDecider } from '../../shared/events/event-stream';
import { EventSchema } from '../../shared/events/schemas';
import { EVENT_TYPES, RSVP_STATUSES } from '../../shared/events/constants';
import { blogPostDecider } from '../../shared/blog/blog-stream';
import { generateExcerpt } from '../../shared/blog/excerpt';
import { calendarFeedDecider } from '../../shared/events/calendar-feed-stream';
import { commentDecider, type ParentComment } from '../../shared/comments/comment-stream';
import { inboxDecider } from '../../shared/notifications/inbox-stream';
import { bookmarkDecider } from '../../shared/bookmarks/bookmark-stream';
import { mediaDecider } from '../../shared/media/media-stream';
import type { Media } from '../../shared/media/schemas';
import { sitePageDecider } from '../../shared/site-pages/site-page-stream';
import { SITE_PAGE_SLUGS } from '../../shared/site-pages/schemas';
import { siteSettingsDecider } from '../../shared/site-pages/site-settings-stream';
import { renderSitePage } from '../../server/site-pages/routes';
import { subscriptionDecider } from '../../shared/subscriptions/subscription-stream';
import { FREQUENCIES, SUBSCRIPTION_TYPES } from '../../shared/subscriptions/constants';
import { categoryDecider } from '../../shared/discussions/category-stream';
import { topicDecider } from '../../shared/discussions/topic-stream';
import { replyDecider } from '../../shared/discussions/reply-stream';
import { readingDecider, readingStreamId } from '../../shared/discussions/reading-stream';
import { WATCH_LEVELS } from '../../shared/discussions/constants';

const DAY = 24 * 3600 * 1000;
/** About this many events come of one act (the rest are refused or change nothing), so the history spans `days`. */
const EVENTS_PER_ACT = 0.31;
/** Members only stand for the hash's place: projections copy it, nobody signs in with it. */
const PASSWORD_HASH = 'scrypt$131072$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

const FIRST_NAMES = [
  'Margaret',
  'Walter',
  'Dorothy',
  'Frank',
  'Lucille',
  'Harold',
  'Irene',
  'Gus',
  'Ruth',
  'Earl',
  'Peggy',
  'Sam',
  'Alice',
  'Bernard',
  'Joan',
  'Vern',
  'Edna',
  'Lloyd',
  'Mabel',
  'Otis',
];
const LAST_NAMES = [
  'Hollis',
  'Brandt',
  'Kane',
  'Okafor',
  'Marsh',
  'Stein',
  'Castillo',
  'Lindqvist',
  'Abernathy',
  'Washington',
  'Novak',
  'Delgado',
  'Tran',
  'Cole',
  'Whitfield',
  'Pruitt',
  'Sandoval',
  'Yoder',
];
const WORDS =
  'transmitter tower studio microphone signal antenna reel tape broadcast evening farm report anchor weather station call sign frequency overnight announcer engineer console newsroom remote pickup kinescope color test pattern sign-on sign-off'.split(
    ' ',
  );
const TAGS = [
  'radio',
  'television',
  'wgn',
  'wls',
  'kyw',
  'archives',
  'equipment',
  'restoration',
  'oral-history',
  'anniversary',
  'sports',
  'news',
  'weather',
  'farm',
  'call-signs',
];

export interface CommunityHistory {
  /** Events appended. */
  events: number;
  /** Calls of EventStore.append. */
  appends: number;
  /** Position of the last event appended. */
  head: number;
}

/** A seeded generator (mulberry32). */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    /** Mostly from the end of the list: recent posts and events get most of the attention. */
    recent: <T>(items: readonly T[]): T => items[Math.min(items.length - 1, Math.floor(items.length * Math.sqrt(next())))]!,
    words: (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' '),
  };
}

/** Streams decided in memory and appended period by period. */
function streams(eventStore: EventStore) {
  const states = new Map<string, unknown>();
  const versions = new Map<string, number>();
  let pending = new Map<string, NewEvent[]>();
  let decided = 0;
  let appends = 0;
  let head = 0;

  return {
    decided: () => decided,
    /** Decides one command on the stream's current state; false when the decider refuses it or it changes nothing. */
    run<State, Command extends { metadata: CommandMetadata }, Event extends DomainEvent>(
      decider: Decider<State, Command, Event>,
      stream: string,
      command: Command,
    ): boolean {
      const state = (states.get(stream) as State | undefined) ?? decider.initialState();
      let events: Event[];
      try {
        events = decider.decide(command, state);
      } catch (error) {
        if (error instanceof DomainError) return false;
        throw error;
      }
      if (events.length === 0) return false;
      states.set(stream, events.reduce(decider.evolve, state));
      this.record(stream, events, command.metadata.actor);
      return true;
    },
    record(stream: string, events: readonly DomainEvent[], actor: Actor | null) {
      const metadata = { commandId: randomUUID(), ...(actor ? { actorId: actor.id } : {}) };
      const batch = pending.get(stream) ?? [];
      pending.set(stream, batch);
      for (const event of events) batch.push({ id: randomUUID(), type: event.type, data: event.data, metadata });
      decided += events.length;
    },
    /** Appends what was decided since the last flush: one append per stream, eight at once. */
    async flush() {
      const batches = [...pending];
      pending = new Map();
      let next = 0;
      const appender = async () => {
        for (let item = batches[next++]; item; item = batches[next++]) {
          const [stream, events] = item;
          const last = versions.get(stream);
          const result = await eventStore.append(stream, events, { expectedVersion: last ?? 'no_stream' });
          versions.set(stream, result.nextExpectedVersion);
          head = Math.max(head, result.position);
          appends++;
        }
      };
      await Promise.all(Array.from({ length: 8 }, appender));
    },
    summary: (): CommunityHistory => ({ events: decided, appends, head }),
  };
}

interface Member extends Actor {
  email: string;
  suspended: boolean;
}

/**
 * Appends at least `events` events of community life over `days` past days, flushed every `daysPerAppend` days:
 * members registered in one flush act from the next one on, so nobody acts before their registration is in the log.
 */
export async function appendCommunityHistory(
  eventStore: EventStore,
  options: { events: number; seed?: number; days?: number; daysPerAppend?: number },
): Promise<CommunityHistory> {
  const random = generator(options.seed ?? 13);
  const log = streams(eventStore);
  const feedGenerations = new Map<string, number>();
  const days = options.days ?? 90;
  const daysPerAppend = options.daysPerAppend ?? 45;
  const perDay = Math.ceil(options.events / days / EVENTS_PER_ACT);
  const start = Date.now() - (days + 1) * DAY;
  let now = new Date(start);
  const meta = (actor: Actor | null) => ({ now, actor });
  /** Records an upload of a photo (`MediaUploaded`), as POST /api/media does once its files are stored. */
  function uploadPhoto(owner: Actor): Media | undefined {
    const id = randomUUID();
    const files = (['avatar-96', 'avatar-192', 'feed', 'blog'] as const).map((variant) => ({
      variant,
      key: `${id}/${variant}.webp`,
      contentType: 'image/webp',
      bytes: 40_000,
      width: 800,
      height: 600,
    }));
    const data = { id, kind: 'image' as const, contentType: 'image/jpeg', files, width: 2000, height: 1500 };
    if (!log.run(mediaDecider, streamName('media', id), { type: 'RecordUpload', data, metadata: meta(owner) })) return undefined;
    return { id, url: `/media/${id}/feed.webp`, kind: 'image', width: 800, height: 600 };
  }

  const members: Member[] = [];
  /** Registered in an earlier flush, so they may act. */
  let active: Member[] = [];
  /** Staff and admins as of the last flush; one demoted since is refused by the deciders, as the site would refuse them. */
  let moderators: Member[] = [];
  const posts: string[] = [];
  const calendar: string[] = [];
  const organizers = new Map<string, Member>();
  const blog: string[] = [];
  const comments: (ParentComment & { authorId: string })[] = [];
  const subscriptions: { id: string; tokenHash: string; owner: Member | null }[] = [];

  function register(role: Role) {
    const id = randomUUID();
    const firstName = random.pick(FIRST_NAMES);
    const lastName = random.pick(LAST_NAMES);
    const email = `${firstName}.${lastName}.${members.length}@example.org`.toLowerCase();
    // Registration claims the address first, and the very first account the founder stream, as the route does.
    log.record(
      streamName('email', createHash('sha256').update(email).digest('hex')),
      [{ type: 'EmailClaimed', data: { memberId: id } }],
      null,
    );
    if (members.length === 0) log.record(streamName('founder', 'community'), [{ type: 'FounderClaimed', data: { memberId: id } }], null);
    log.run(memberDecider, streamName('member', id), {
      type: 'RegisterMember',
      data: { id, email, firstName, lastName, passwordHash: PASSWORD_HASH, isFirstMember: members.length === 0 },
      metadata: meta(null),
    });
    const member: Member = { id, role: members.length === 0 ? 'admin' : 'member', email, suspended: false };
    members.push(member);
    if (role !== member.role) changeRole(members[0]!, member, role);
  }

  function changeRole(admin: Member, member: Member, role: Role) {
    if (
      log.run(memberDecider, streamName('member', member.id), { type: 'ChangeRole', data: { role, adminCount: 2 }, metadata: meta(admin) })
    )
      member.role = role;
  }

  /** Who wrote each post, so that an edit comes from its author (or staff). */
  const postAuthors = new Map<string, Member>();
  const post = (
    actor: Member,
    id: string,
    type: 'ApprovePost' | 'RejectPost' | 'PinPost' | 'UnpinPost' | 'LikePost' | 'UnlikePost' | 'DeletePost',
  ) => log.run(postDecider, streamName('post', id), { type, data: {}, metadata: meta(actor) });

  function eventFields(organizer: Member) {
    const startDate = new Date(now.getTime() + random.int(2, 60) * DAY + random.int(9, 20) * 3600_000);
    return v.parse(EventSchema, {
      title: `${random.pick(['Reunion of', 'Memorial for', 'Anniversary of', 'Open house at', 'Tour of'])} ${random.words(3)}`,
      description: random.words(random.int(5, 40)),
      eventType: random.pick(EVENT_TYPES),
      location: random.chance(0.2) ? '' : `${random.pick(LAST_NAMES)} Hall`,
      isVirtual: random.chance(0.2),
      startDate: startDate.toISOString(),
      endDate: new Date(startDate.getTime() + random.int(1, 4) * 3600_000).toISOString(),
      maxAttendees: random.chance(0.3) ? random.int(20, 120) : null,
      isPublic: random.chance(0.9) || organizer.role === 'member',
      tags: [random.pick(TAGS)],
    });
  }

  function blogPost(writer: Member) {
    const id = randomUUID();
    const content = `<h2>${random.words(4)}</h2><p>${random.words(random.int(30, 120))}</p>`;
    if (
      log.run(blogPostDecider, streamName('blog', id), {
        type: 'CreateBlogPost',
        data: {
          id,
          title: random.words(6),
          excerpt: generateExcerpt(content),
          content,
          tags: [random.pick(TAGS)],
          isPublished: random.chance(0.7),
          isPinned: random.chance(0.05),
          isFeatured: random.chance(0.1),
        },
        metadata: meta(writer),
      })
    )
      blog.push(id);
  }

  /** Discussion topics, each with its replies in the order the log holds them (numbered 1, 2, …) and their authors. */
  const categories: string[] = [];
  const topics: { id: string; locked: boolean; replies: { id: string; authorId: string }[] }[] = [];

  function openCategory(admin: Member, name: string) {
    const id = randomUUID();
    const slug = name.toLowerCase().replaceAll(' ', '-');
    const data = { id, name, slug, description: random.words(8), color: random.pick(['#b45309', '#1d4ed8', '#15803d']) };
    if (log.run(categoryDecider, streamName('category', id), { type: 'CreateCategory', data, metadata: meta(admin) })) categories.push(id);
  }

  /** A member starts a topic, replies (quoting a recent reply now and then), reads, watches, edits or deletes; staff pin and lock. */
  function discuss(member: Member, moderator: Member) {
    const choice = random.int(0, 99);
    if (choice < 12 || topics.length === 0) {
      const id = randomUUID();
      const data = {
        id,
        categoryId: random.pick(categories),
        title: `${random.words(5)}?`,
        content: `<p>${random.words(random.int(10, 60))}</p>`,
        tags: [random.pick(TAGS)],
      };
      if (log.run(topicDecider, streamName('topic', id), { type: 'StartTopic', data, metadata: meta(member) }))
        topics.push({ id, locked: false, replies: [] });
      return;
    }
    const topic = random.recent(topics);
    if (choice < 70) {
      const id = randomUUID();
      const quoted = topic.replies.length && random.chance(0.3) ? random.recent(topic.replies) : null;
      const data = {
        id,
        topic: { id: topic.id, locked: topic.locked },
        replyTo: quoted && { id: quoted.id, topicId: topic.id, deleted: false },
        content: `<p>${random.words(random.int(5, 80))}</p>`,
      };
      if (log.run(replyDecider, streamName('reply', id), { type: 'PostReply', data, metadata: meta(member) }))
        topic.replies.push({ id, authorId: member.id });
    } else if (choice < 88) {
      const number = topic.replies.length;
      const replyId = number ? topic.replies[number - 1]!.id : topic.id;
      log.run(readingDecider, streamName('reading', readingStreamId(topic.id, member.id)), {
        type: 'ReadTopicUpTo',
        data: { topicId: topic.id, memberId: member.id, replyId, number },
        metadata: meta(member),
      });
    } else if (choice < 93)
      log.run(readingDecider, streamName('reading', readingStreamId(topic.id, member.id)), {
        type: 'WatchTopic',
        data: { topicId: topic.id, memberId: member.id, level: random.pick(WATCH_LEVELS) },
        metadata: meta(member),
      });
    else if (choice < 97) {
      const own = topic.replies.filter((reply) => reply.authorId === member.id);
      if (own.length === 0) return;
      const stream = streamName('reply', random.pick(own).id);
      if (random.chance(0.7))
        log.run(replyDecider, stream, {
          type: 'EditReply',
          data: { content: `<p>${random.words(random.int(5, 40))}</p>` },
          metadata: meta(member),
        });
      else log.run(replyDecider, stream, { type: 'DeleteReply', data: {}, metadata: meta(member) });
    } else {
      const locked = random.chance(0.3);
      const moderation = locked ? { locked: !topic.locked } : { pinned: random.chance(0.5) };
      if (
        log.run(topicDecider, streamName('topic', topic.id), { type: 'ModerateTopic', data: moderation, metadata: meta(moderator) }) &&
        locked
      )
        topic.locked = !topic.locked;
    }
  }

  function subscribe(owner: Member | null) {
    const id = randomUUID();
    const tokenHash = createHash('sha256').update(id).digest('hex');
    const email = owner?.email ?? `guest.${subscriptions.length}@example.net`;
    const requested = log.run(subscriptionDecider, streamName('subscription', id), {
      type: 'RequestSubscription',
      data: { id, email, subscriptionType: random.pick(SUBSCRIPTION_TYPES), frequency: random.pick(FREQUENCIES), tokenHash },
      metadata: meta(owner),
    });
    if (requested) subscriptions.push({ id, tokenHash, owner });
  }

  /** A member comments on a post or blog post, replies, edits or removes their comment, or reports one; staff remove some. */
  function comment(member: Member, moderator: Member) {
    const choice = random.int(0, 99);
    const recent = comments.length ? random.recent(comments) : null;
    if (choice < 60 || !recent) {
      const id = randomUUID();
      const onBlog = blog.length > 0 && random.chance(0.15);
      const target = {
        targetType: onBlog ? ('blog' as const) : ('post' as const),
        targetId: onBlog ? random.recent(blog) : random.recent(posts),
      };
      if (
        log.run(commentDecider, streamName('comment', id), {
          type: 'WriteComment',
          data: { id, ...target, content: random.words(random.int(3, 40)), parent: null },
          metadata: meta(member),
        })
      )
        comments.push({ id, ...target, parentId: null, authorId: member.id, removed: false });
    } else if (choice < 75) {
      const id = randomUUID();
      const parent = recent.parentId ? comments.find((c) => c.id === recent.parentId)! : recent;
      const { targetType, targetId } = parent;
      if (
        log.run(commentDecider, streamName('comment', id), {
          type: 'WriteComment',
          data: { id, targetType, targetId, content: random.words(random.int(3, 30)), parent },
          metadata: meta(member),
        })
      )
        comments.push({ id, targetType, targetId, parentId: parent.id, authorId: member.id, removed: false });
    } else if (choice < 85) {
      const author = active.find((m) => m.id === recent.authorId);
      if (author)
        log.run(commentDecider, streamName('comment', recent.id), {
          type: 'EditComment',
          data: { content: random.words(random.int(3, 40)) },
          metadata: meta(author),
        });
    } else if (choice < 95) {
      const author = active.find((m) => m.id === recent.authorId);
      if (
        log.run(commentDecider, streamName('comment', recent.id), {
          type: 'RemoveComment',
          data: {},
          metadata: meta(random.chance(0.5) && author ? author : moderator),
        })
      )
        recent.removed = true;
    } else if (choice < 98)
      log.run(commentDecider, streamName('comment', recent.id), {
        type: 'ReportComment',
        data: { reason: random.words(3) },
        metadata: meta(member),
      });
    else log.run(commentDecider, streamName('comment', recent.id), { type: 'DismissCommentReports', data: {}, metadata: meta(moderator) });
  }

  /** One thing a member, staff or a mail worker does; the weights give a believable mix, mostly likes and RSVPs. */
  function act() {
    const member = random.pick(active);
    const moderator = random.pick(moderators);
    const roll = random.int(0, 9999);
    if (member.suspended) {
      if (
        roll < 500 &&
        log.run(memberDecider, streamName('member', member.id), { type: 'UnsuspendMember', data: {}, metadata: meta(moderator) })
      )
        member.suspended = false;
      return;
    }
    if (roll < 50) {
      const id = randomUUID();
      const tags = normalizeTags(Array.from({ length: random.int(0, 3) }, () => random.pick(TAGS)));
      const media = random.chance(0.15);
      // Some posts show a photo the member uploaded first (its files are not stored: projections read only the log).
      const upload = !media && random.chance(0.2) ? uploadPhoto(member) : undefined;
      const submitted = log.run(postDecider, streamName('post', id), {
        type: 'SubmitPost',
        data: {
          id,
          content: random.words(random.int(8, 60)),
          tags,
          mediaType: media ? 'link' : null,
          mediaUrl: media ? 'https://en.wikipedia.org/wiki/Broadcasting' : null,
          mediaTitle: null,
          ...(upload ? { media: upload } : {}),
        },
        metadata: meta(member),
      });
      if (submitted) {
        posts.push(id);
        postAuthors.set(id, member);
      }
    } else if (roll < 300 && posts.length) post(moderator, random.recent(posts), random.chance(0.85) ? 'ApprovePost' : 'RejectPost');
    else if (roll < 4400 && posts.length) post(member, random.recent(posts), 'LikePost');
    else if (roll < 4420 && posts.length) {
      // The author edits (held for review once the post is approved), or staff do (applied at once).
      const id = random.recent(posts);
      const editor = random.chance(0.3) ? moderator : (postAuthors.get(id) ?? moderator);
      const tags = normalizeTags(Array.from({ length: random.int(0, 3) }, () => random.pick(TAGS)));
      log.run(postDecider, streamName('post', id), {
        type: 'EditPost',
        data: { content: random.words(random.int(8, 60)), tags, mediaType: null, mediaUrl: null, mediaTitle: null },
        metadata: meta(editor),
      });
    } else if (roll < 4720 && posts.length) comment(member, moderator);
    else if (roll < 4920 && posts.length) post(member, random.recent(posts), 'UnlikePost');
    else if (roll < 5520 && posts.length)
      log.run(postDecider, streamName('post', random.recent(posts)), {
        type: 'SharePost',
        data: {},
        metadata: meta(random.chance(0.5) ? member : null),
      });
    else if (roll < 5570 && posts.length)
      log.run(
        postDecider,
        streamName('post', random.recent(posts)),
        random.chance(0.8)
          ? { type: 'ReportPost', data: { reason: random.words(3) }, metadata: meta(member) }
          : { type: 'DismissPostReports', data: {}, metadata: meta(moderator) },
      );
    else if (roll < 5600 && posts.length) post(moderator, random.recent(posts), random.chance(0.6) ? 'PinPost' : 'UnpinPost');
    else if (roll < 5630 && posts.length) post(random.chance(0.5) ? moderator : member, random.pick(posts), 'DeletePost');
    else if (roll < 5645) {
      const id = randomUUID();
      if (
        log.run(calendarEventDecider, streamName('event', id), {
          type: 'ScheduleEvent',
          data: { id, fields: eventFields(member) },
          metadata: meta(member),
        })
      ) {
        calendar.push(id);
        organizers.set(id, member);
      }
    } else if (roll < 5795 && calendar.length) {
      const type = random.pick(['ApproveEvent', 'ApproveEvent', 'ApproveEvent', 'RejectEvent', 'FeatureEvent', 'UnfeatureEvent'] as const);
      log.run(calendarEventDecider, streamName('event', random.recent(calendar)), { type, data: {}, metadata: meta(moderator) });
    } else if (roll < 5845 && calendar.length) {
      // Organizers and staff edit; a member's edit of an approved event goes back to moderation.
      const id = random.recent(calendar);
      const editor = random.chance(0.3) ? moderator : organizers.get(id)!;
      log.run(calendarEventDecider, streamName('event', id), {
        type: 'EditEvent',
        data: { fields: eventFields(editor) },
        metadata: meta(editor),
      });
    } else if (roll < 5850 && calendar.length)
      log.run(calendarEventDecider, streamName('event', random.pick(calendar)), {
        type: 'DeleteEvent',
        data: {},
        metadata: meta(moderator),
      });
    else if (roll < 8350 && calendar.length)
      log.run(calendarEventDecider, streamName('event', random.recent(calendar)), {
        type: 'SetRsvp',
        data: { status: random.pick(RSVP_STATUSES) },
        metadata: meta(member),
      });
    else if (roll < 8550 && calendar.length)
      log.run(calendarEventDecider, streamName('event', random.recent(calendar)), { type: 'RemoveRsvp', data: {}, metadata: meta(member) });
    else if (roll < 8560) blogPost(moderator);
    else if (roll < 8715 && blog.length) {
      const id = random.recent(blog);
      const type = random.pick([
        'EditBlogPost',
        'PublishBlogPost',
        'UnpublishBlogPost',
        'PinBlogPost',
        'UnpinBlogPost',
        'FeatureBlogPost',
        'UnfeatureBlogPost',
        'DeleteBlogPost',
      ] as const);
      if (type === 'EditBlogPost') {
        const content = `<p>${random.words(random.int(30, 120))}</p>`;
        log.run(blogPostDecider, streamName('blog', id), {
          type,
          data: {
            title: random.words(6),
            excerpt: generateExcerpt(content),
            content,
            ...(random.chance(0.5) ? { tags: [random.pick(TAGS)] } : {}),
          },
          metadata: meta(moderator),
        });
      } else if (type !== 'DeleteBlogPost' || random.chance(0.2))
        log.run(blogPostDecider, streamName('blog', id), { type, data: {}, metadata: meta(moderator) });
    } else if (roll < 8915) {
      const changes = random.chance(0.5)
        ? { firstName: random.pick(FIRST_NAMES) }
        : random.chance(0.5)
          ? { lastName: random.pick(LAST_NAMES) }
          : random.chance(0.5)
            ? { bio: random.words(random.int(0, 40)) }
            : { profileImageUrl: `/uploads/${randomUUID()}.jpg` };
      log.run(memberDecider, streamName('member', member.id), { type: 'ChangeProfile', data: changes, metadata: meta(member) });
    } else if (roll < 8955)
      log.run(memberDecider, streamName('member', member.id), {
        type: 'ChangePassword',
        data: { passwordHash: PASSWORD_HASH },
        metadata: meta(member),
      });
    else if (roll < 8965 && !member.suspended) {
      // As the e-mail change link does: the new address is claimed first, the old one released after.
      const email = `${member.email.split('@')[0]}.${random.int(1, 99999)}@example.org`;
      if (members.some((m) => m.email === email)) return;
      log.record(
        streamName('email', createHash('sha256').update(email).digest('hex')),
        [{ type: 'EmailClaimed', data: { memberId: member.id } }],
        null,
      );
      if (log.run(memberDecider, streamName('member', member.id), { type: 'ChangeEmail', data: { email }, metadata: meta(member) })) {
        log.record(
          streamName('email', createHash('sha256').update(member.email).digest('hex')),
          [{ type: 'EmailReleased', data: { memberId: member.id } }],
          null,
        );
        member.email = email;
      }
    } else if (roll < 8995 && member.role !== 'admin') {
      const admin = active.find((m) => m.role === 'admin' && !m.suspended)!;
      changeRole(admin, member, random.pick(['member', 'member', 'subscriber', 'staff'] as const));
    } else if (roll < 9025 && member.role === 'member') {
      if (
        log.run(memberDecider, streamName('member', member.id), {
          type: 'SuspendMember',
          data: { reason: random.words(4) },
          metadata: meta(moderator),
        })
      )
        member.suspended = true;
    } else if (roll < 9065) subscribe(random.chance(0.6) ? member : null);
    else if (roll < 9070) {
      const admin = active.find((m) => m.role === 'admin' && !m.suspended)!;
      const slug = random.pick(SITE_PAGE_SLUGS);
      const body = `## ${random.words(3)}\n\n${random.words(30)}`;
      log.run(sitePageDecider, streamName('page', slug), {
        type: 'EditSitePage',
        data: { slug, title: random.words(3), body, html: renderSitePage(body) },
        metadata: meta(admin),
      });
    } else if (roll < 9072) {
      // A member saves (or unsaves) a post, an event or a blog post.
      const kind = random.pick(['post', 'event', 'blog'] as const);
      const ids = kind === 'post' ? posts : kind === 'event' ? calendar : blog;
      if (ids.length)
        log.run(bookmarkDecider, streamName('bookmarks', member.id), {
          type: random.chance(0.8) ? 'SaveBookmark' : 'RemoveBookmark',
          data: { memberId: member.id, kind, id: random.recent(ids) },
          metadata: meta(member),
        });
    } else if (roll < 9075)
      log.run(inboxDecider, streamName('inbox', member.id), {
        type: 'MarkNotificationsRead',
        data: { memberId: member.id, ids: null },
        metadata: meta(member),
      });
    else if (roll < 9085) {
      // A member asks for (or resets) their private calendar feed, or turns their event reminders on or off.
      const stream = streamName('calendar', member.id);
      if (random.chance(0.7)) {
        const generation = (feedGenerations.get(member.id) ?? 0) + 1;
        const tokenHash = createHash('sha256').update(`${member.id}:${generation}`).digest('hex');
        if (
          log.run(calendarFeedDecider, stream, {
            type: 'IssueCalendarFeed',
            data: { memberId: member.id, generation, tokenHash },
            metadata: meta(member),
          })
        )
          feedGenerations.set(member.id, generation);
      } else
        log.run(calendarFeedDecider, stream, {
          type: 'SetEventReminders',
          data: { memberId: member.id, enabled: random.chance(0.5) },
          metadata: meta(member),
        });
    } else if (roll < 9385) discuss(member, moderator);
    else if (roll < 10000 && subscriptions.length) {
      const subscription = random.recent(subscriptions);
      const stream = streamName('subscription', subscription.id);
      const system = meta(null);
      const choice = random.int(0, 99);
      // A guest is sent the confirmation link, and confirms (or not) by it; a member's subscription needs neither.
      if (choice < 30) {
        if (!subscription.owner)
          log.run(subscriptionDecider, stream, {
            type: 'RecordDelivery',
            data: { kind: 'confirmation', itemKey: subscription.id },
            metadata: system,
          });
      } else if (choice < 60)
        log.run(subscriptionDecider, stream, {
          type: 'ConfirmSubscription',
          data: { tokenHash: subscription.tokenHash },
          metadata: system,
        });
      else if (choice < 90) {
        // Only a member changes a subscription; a guest's changes only through its links.
        if (subscription.owner)
          log.run(subscriptionDecider, stream, {
            type: 'UpdateSubscription',
            data: random.chance(0.5) ? { frequency: random.pick(FREQUENCIES) } : { isActive: random.chance(0.5) },
            metadata: meta(subscription.owner),
          });
      } else if (choice < 91)
        log.run(subscriptionDecider, stream, { type: 'RecordBounce', data: { reason: '550 Mailbox unavailable' }, metadata: system });
      else
        log.run(subscriptionDecider, stream, {
          type: 'Unsubscribe',
          data: { via: random.pick(['link', 'one_click'] as const), tokenHash: subscription.tokenHash },
          metadata: system,
        });
    }
  }

  // The founder, the staff and the first members, before anyone acts.
  register('admin');
  for (let i = 0; i < 5; i++) register('staff');
  for (let i = 0; i < 30; i++) register(random.chance(0.1) ? 'subscriber' : 'member');
  const joined = async () => {
    await log.flush();
    active = [...members];
    moderators = active.filter((m) => m.role === 'admin' || m.role === 'staff');
  };
  await joined();
  for (const name of ['Stations and People', 'Equipment', 'Memories']) openCategory(members[0]!, name);
  log.run(siteSettingsDecider, streamName('site', 'settings'), {
    type: 'SetSiteTimeZone',
    data: { timeZone: 'America/Chicago' },
    metadata: meta(members[0]!),
  });

  for (let day = 0; log.decided() < options.events; day++) {
    const dayStart = start + day * DAY;
    for (let newcomers = random.int(1, 6); newcomers > 0; newcomers--) {
      now = new Date(dayStart + random.int(0, DAY - 1));
      register(random.chance(0.1) ? 'subscriber' : 'member');
    }
    for (let i = 0; i < perDay && log.decided() < options.events; i++) {
      now = new Date(dayStart + Math.floor((i / perDay) * DAY));
      act();
    }
    if ((day + 1) % daysPerAppend === 0) await joined();
  }
  await log.flush();
  return log.summary();
}
