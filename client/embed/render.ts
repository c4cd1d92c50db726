/**
 * The widgets' markup (docs/domain/embeds.md#widgets). Every link opens the main
 * site in the page that holds the widget (target="_top"), never inside the
 * frame. The feed's looks: `full` (avatars, media, tags, counts), `simple`
 * (text, author, tags and counts, no media or avatars), `ultra` (one clamped
 * line of text and the author's name), `compact` (small avatars and text, counts,
 * no media or tags).
 */
import { truncate } from '../../shared/text';
// Not the DOM's textContent, which runs blocks together ("nerve</p><p>The" would read "nerveThe").
import { htmlToText } from '../../shared/blog/excerpt';
import { initials } from '../../shared/members/display';
import { isHttpUrl } from '../../shared/feed/media';
import { EVENT_ID_SHOWN_LENGTH, EVENT_TYPE_LABELS, type EventType } from '../../shared/events/constants';
import { formatEventTime } from '../../shared/events/event-times';
import { relativeTime } from '../lib/relative-time';
import { h, type Child } from './dom';
import type { BlogPost, FeedPost, WidgetData, WidgetEvent } from './data';
import {
  BLOG_EXCERPT_LIMIT,
  BLOG_EXCERPT_LIMIT_COMPACT,
  BLOG_TAGS_SHOWN,
  EVENT_TEXT_LIMIT,
  EVENT_TEXT_LIMIT_COMPACT,
  SINGLE_POST_TEXT_LIMIT,
  type FeedLook,
  type WidgetRequest,
} from './widgets';

export const TEXTS = {
  feedTitle: 'Community Feed',
  eventsTitle: 'Upcoming Events',
  blogTitle: 'From the Blog',
  viewAll: 'View all',
  noPosts: 'No posts yet',
  noEvents: 'No events found',
  noBlogPosts: 'No blog posts yet',
  postFailed: 'Failed to load blog post.',
  postNotFound: 'Blog post not found',
  feedFailed: 'Failed to load posts.',
  eventsFailed: 'Failed to load events.',
  blogFailed: 'Failed to load blog posts.',
  unknownWidget: 'This widget does not exist.',
  readMore: 'Read the full post',
} as const;

/** A link to a page of the main site, opened in the page that holds the widget. */
function siteLink(origin: string, path: string, children: Child | Child[], className?: string) {
  return h('a', { href: `${origin}${path}`, target: '_top', class: className }, children);
}

function header(title: string, link: Child) {
  return h('header', { class: 'w-head' }, h('h1', null, title), link);
}

function roleBadge(role: string) {
  return h('span', { class: `role role-${role}` }, role);
}

function avatar(author: FeedPost['author'], small: boolean) {
  const size = small ? 'avatar avatar-sm' : 'avatar';
  return author.avatar && isHttpUrl(author.avatar)
    ? h('img', { class: size, src: author.avatar, alt: '', loading: 'lazy' })
    : h('span', { class: size, 'aria-hidden': 'true' }, initials(author.name));
}

function postedAt(origin: string, iso: string) {
  return siteLink(origin, '/', h('time', { datetime: iso }, relativeTime(iso)), 'muted');
}

function media(post: FeedPost): Child {
  const url = post.mediaUrl;
  if (!url || !isHttpUrl(url)) return null;
  const title = post.mediaTitle ?? undefined;
  switch (post.mediaType) {
    case 'image':
      return h('img', { class: 'media', src: url, alt: title ?? 'Image shared with the post', loading: 'lazy' });
    case 'video':
      return h('video', { class: 'media', src: url, controls: '', preload: 'none', title });
    case 'audio':
      return h('audio', { class: 'media', src: url, controls: '', preload: 'none', title });
    default:
      return h(
        'a',
        { class: 'media-link', href: url, target: '_blank', rel: 'noopener noreferrer' },
        post.mediaType === 'youtube' ? `▶ ${title ?? 'Watch on YouTube'}` : (title ?? url),
      );
  }
}

const tagList = (tags: readonly string[], shown = tags.length) =>
  tags.length === 0
    ? null
    : h(
        'ul',
        { class: 'tags', 'aria-label': 'Tags' },
        tags.slice(0, shown).map((tag) => h('li', null, `#${tag}`)),
        tags.length > shown ? h('li', { class: 'more' }, `+${tags.length - shown}`) : null,
      );

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const counts = (post: FeedPost) =>
  h(
    'p',
    { class: 'counts muted' },
    h('span', null, plural(post.likesCount, 'like', 'likes')),
    h('span', null, plural(post.commentsCount, 'comment', 'comments')),
  );

function feedPost(post: FeedPost, look: FeedLook, origin: string) {
  const byline = h(
    'p',
    { class: 'byline' },
    h('span', { class: 'author' }, post.author.name),
    look === 'ultra' ? null : roleBadge(post.author.role),
    look === 'ultra' ? null : postedAt(origin, post.createdAt),
  );
  const content = h('p', { class: 'content' }, post.content);
  switch (look) {
    case 'full':
      return h(
        'article',
        { class: 'item post' },
        avatar(post.author, false),
        h('div', { class: 'body' }, byline, content, media(post), tagList(post.tags), counts(post)),
      );
    case 'simple':
      return h('article', { class: 'item post' }, h('div', { class: 'body' }, byline, content, tagList(post.tags), counts(post)));
    case 'compact':
      return h(
        'article',
        { class: 'item post compact' },
        avatar(post.author, true),
        h('div', { class: 'body' }, byline, content, counts(post)),
      );
    case 'ultra':
      return h('article', { class: 'item post ultra' }, h('p', { class: 'content' }, post.content), byline);
  }
}

/** An event in the site's zone, naming it, with the reader's own time beside when their clock differs. */
function eventItem(event: WidgetEvent, compact: boolean, origin: string, zones: { timeZone: string; readerTimeZone: string }) {
  const place = event.isVirtual ? 'Virtual Event' : event.location || null;
  const limit = compact ? EVENT_TEXT_LIMIT_COMPACT : EVENT_TEXT_LIMIT;
  const attendance = event.maxAttendees ? `${event.attendeeCount} of ${event.maxAttendees} attending` : `${event.attendeeCount} attending`;
  return h(
    'article',
    { class: `item event${compact ? ' compact' : ''}` },
    h(
      'div',
      { class: 'body' },
      h(
        'h2',
        null,
        event.isCancelled ? h('span', { class: 'badge cancelled' }, 'Cancelled') : null,
        siteLink(origin, '/calendar', event.title),
        event.isFeatured && !event.isCancelled ? h('span', { class: 'badge' }, 'Featured') : null,
      ),
      h('p', { class: 'when' }, h('time', { datetime: event.startDate }, formatEventTime({ ...event, allDay: event.isAllDay }, zones))),
      h('p', { class: 'muted' }, [EVENT_TYPE_LABELS[event.eventType as EventType] ?? event.eventType, place].filter(Boolean).join(' · ')),
      event.description ? h('p', { class: 'content' }, truncate(event.description, limit)) : null,
      h(
        'p',
        { class: 'counts muted' },
        h('span', { 'data-attendance': '' }, attendance),
        h('span', { class: 'ref', title: 'Event reference' }, `#${event.id.slice(0, EVENT_ID_SHOWN_LENGTH)}`),
      ),
    ),
  );
}

const shownDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function blogItem(post: BlogPost, compact: boolean, origin: string) {
  const date = post.publishedAt ?? post.createdAt;
  return h(
    'article',
    { class: `item blog${compact ? ' compact' : ''}` },
    h(
      'div',
      { class: 'body' },
      h(
        'h2',
        null,
        siteLink(origin, `/blog/${post.slug}`, post.title),
        post.isPinned ? h('span', { class: 'badge' }, 'Pinned') : null,
        post.isFeatured ? h('span', { class: 'badge' }, 'Featured') : null,
      ),
      h(
        'p',
        { class: 'byline' },
        h('span', { class: 'author' }, post.author.name),
        roleBadge(post.author.role),
        h('time', { class: 'muted', datetime: date }, shownDate(date)),
      ),
      post.excerpt ? h('p', { class: 'content' }, truncate(post.excerpt, compact ? BLOG_EXCERPT_LIMIT_COMPACT : BLOG_EXCERPT_LIMIT)) : null,
      tagList(post.tags, BLOG_TAGS_SHOWN),
    ),
  );
}

function singlePost(post: BlogPost, origin: string) {
  const date = post.publishedAt ?? post.createdAt;
  return h(
    'article',
    { class: 'item blog single' },
    h(
      'div',
      { class: 'body' },
      h('h1', null, siteLink(origin, `/blog/${post.slug}`, post.title)),
      h(
        'p',
        { class: 'byline' },
        h('span', { class: 'author' }, post.author.name),
        roleBadge(post.author.role),
        h('time', { class: 'muted', datetime: date }, shownDate(date)),
      ),
      tagList(post.tags, BLOG_TAGS_SHOWN),
      h('p', { class: 'content' }, truncate(htmlToText(post.content), SINGLE_POST_TEXT_LIMIT)),
      siteLink(origin, `/blog/${post.slug}`, TEXTS.readMore, 'read-more'),
    ),
  );
}

const notice = (text: string, role: 'status' | 'alert' = 'status') => h('p', { class: 'notice', role }, text);

export interface RenderContext {
  origin: string;
  timeZone: string;
}

/** The whole widget for its data. */
export function renderWidget({ spec, options }: WidgetRequest, data: WidgetData, { origin, timeZone }: RenderContext): HTMLElement {
  const compact = options.compact;
  switch (data.kind) {
    case 'feed': {
      const look = spec.look ?? 'full';
      return h(
        'section',
        { class: `widget feed look-${look}` },
        spec.header ? header(TEXTS.feedTitle, siteLink(origin, '/', TEXTS.viewAll, 'view-all')) : null,
        data.posts.length === 0 ? notice(TEXTS.noPosts) : data.posts.map((post) => feedPost(post, look, origin)),
      );
    }
    case 'events':
      return h(
        'section',
        { class: 'widget events' },
        header(TEXTS.eventsTitle, siteLink(origin, '/calendar', TEXTS.viewAll, 'view-all')),
        data.events.length === 0
          ? notice(TEXTS.noEvents)
          : data.events.map((event) => eventItem(event, compact, origin, { timeZone: data.timeZone, readerTimeZone: timeZone })),
      );
    case 'blog':
      return h(
        'section',
        { class: 'widget blog-list' },
        header(TEXTS.blogTitle, siteLink(origin, '/blog', TEXTS.viewAll, 'view-all')),
        data.posts.length === 0 ? notice(TEXTS.noBlogPosts) : data.posts.map((post) => blogItem(post, compact, origin)),
      );
    case 'blog-post':
      return h('section', { class: 'widget blog-post' }, data.post ? singlePost(data.post, origin) : notice(TEXTS.postNotFound));
  }
}

const FAILURES = { feed: TEXTS.feedFailed, events: TEXTS.eventsFailed, blog: TEXTS.blogFailed, 'blog-post': TEXTS.postFailed } as const;

/** What a widget says when its data cannot be read (it tries again on the next notice or reconnection). */
export function renderFailure({ spec }: WidgetRequest): HTMLElement {
  return h('section', { class: 'widget' }, notice(FAILURES[spec.kind], 'alert'));
}

export function renderUnknown(): HTMLElement {
  return h('section', { class: 'widget' }, notice(TEXTS.unknownWidget, 'alert'));
}
