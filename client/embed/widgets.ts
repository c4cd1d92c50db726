/**
 * The embeddable widgets (docs/domain/embeds.md#widgets): their names as the loader
 * (`/embed.js`) knows them, their paths, their defaults and what each reads
 * from its query string. Pure, so the embed page, the staff widgets page and
 * the tests agree on one catalogue.
 */
import { EVENTS_WIDGET_LIMIT, EVENT_TEXT_LIMIT, EVENT_TEXT_LIMIT_COMPACT } from '../../shared/events/constants';

export const WIDGET_NAMES = ['feed', 'simple', 'ultra', 'compact', 'minimal', 'calendar', 'blog', 'blog-post'] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

/** What a widget shows: the newsfeed in one of its looks, the events, the blog list, one blog post. */
export type WidgetKind = 'feed' | 'events' | 'blog' | 'blog-post';
/** The newsfeed's looks; see `client/embed/render.ts` for what each leaves out. */
export type FeedLook = 'full' | 'simple' | 'ultra' | 'compact';

export interface WidgetSpec {
  name: WidgetName;
  kind: WidgetKind;
  label: string;
  description: string;
  /** Items shown unless the page asks for another number; none for the single post. */
  defaultLimit: number | null;
  look: FeedLook | null;
  /** A title bar with a link to the site's page for it (the minimal feed and the single post have none). */
  header: boolean;
  /** Query options the widget understands besides limit and the transparent background. */
  filters: readonly ('featured' | 'pinned' | 'compact')[];
}

export const LIMIT_MAX = 100;
export const FEED_WIDGET_LIMIT = 5;
export const COMPACT_FEED_LIMIT = 3;
export const MINIMAL_FEED_LIMIT = 5;
export const BLOG_WIDGET_LIMIT = 5;
export const BLOG_EXCERPT_LIMIT = 120;
export const BLOG_EXCERPT_LIMIT_COMPACT = 80;
export const SINGLE_POST_TEXT_LIMIT = 200;
export const BLOG_TAGS_SHOWN = 3;
export { EVENT_TEXT_LIMIT, EVENT_TEXT_LIMIT_COMPACT };

export const WIDGETS: Record<WidgetName, WidgetSpec> = {
  feed: {
    name: 'feed',
    kind: 'feed',
    label: 'Feed',
    description: 'Community posts with authors, media, tags, likes and comments.',
    defaultLimit: FEED_WIDGET_LIMIT,
    look: 'full',
    header: true,
    filters: [],
  },
  simple: {
    name: 'simple',
    kind: 'feed',
    label: 'Simple feed',
    description: 'Posts as text with their authors and counts, no media.',
    defaultLimit: FEED_WIDGET_LIMIT,
    look: 'simple',
    header: true,
    filters: [],
  },
  ultra: {
    name: 'ultra',
    kind: 'feed',
    label: 'Ultra-simple feed',
    description: 'One short line of text per post and its author.',
    defaultLimit: FEED_WIDGET_LIMIT,
    look: 'ultra',
    header: true,
    filters: [],
  },
  compact: {
    name: 'compact',
    kind: 'feed',
    label: 'Compact feed',
    description: 'The three latest posts, small.',
    defaultLimit: COMPACT_FEED_LIMIT,
    look: 'compact',
    header: true,
    filters: [],
  },
  minimal: {
    name: 'minimal',
    kind: 'feed',
    label: 'Minimal feed',
    description: 'Compact posts without a header.',
    defaultLimit: MINIMAL_FEED_LIMIT,
    look: 'compact',
    header: false,
    filters: [],
  },
  calendar: {
    name: 'calendar',
    kind: 'events',
    label: 'Events',
    description: 'Upcoming public events with dates, places and attendance.',
    defaultLimit: EVENTS_WIDGET_LIMIT,
    look: null,
    header: true,
    filters: ['featured', 'compact'],
  },
  blog: {
    name: 'blog',
    kind: 'blog',
    label: 'Blog',
    description: 'The latest blog posts with excerpts and tags.',
    defaultLimit: BLOG_WIDGET_LIMIT,
    look: null,
    header: true,
    filters: ['featured', 'pinned', 'compact'],
  },
  'blog-post': {
    name: 'blog-post',
    kind: 'blog-post',
    label: 'Single blog post',
    description: 'One blog post, its opening lines and a link to read on.',
    defaultLimit: null,
    look: null,
    header: false,
    filters: [],
  },
};

/** Where a widget lives on the site. */
export function widgetPath(name: WidgetName, postId = ''): string {
  if (name === 'feed') return '/embed';
  if (name === 'blog-post') return `/embed/blog/${encodeURIComponent(postId)}`;
  return `/embed/${name}`;
}

export interface WidgetOptions {
  limit: number | null;
  featured: boolean | null;
  pinned: boolean | null;
  compact: boolean;
  transparent: boolean;
}

export interface WidgetRequest {
  spec: WidgetSpec;
  postId: string | null;
  options: WidgetOptions;
}

const flag = (value: string | null) => value === '1' || value === 'true';
const tristate = (value: string | null) => (value === null ? null : flag(value));

/** The number asked for, kept within what the API serves; anything unreadable means the default. */
function limitOf(value: string | null, fallback: number | null): number | null {
  if (fallback === null) return null;
  const asked = value === null ? Number.NaN : Number(value);
  return Number.isInteger(asked) && asked >= 1 ? Math.min(asked, LIMIT_MAX) : fallback;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Reads an embed page's address; null when the path is not a widget (the page then says so). */
export function readWidgetRequest(pathname: string, search: string): WidgetRequest | null {
  const path = pathname.replace(/\/+$/u, '');
  const post = /^\/embed\/blog\/([^/]+)$/u.exec(path);
  const name: WidgetName | undefined = post
    ? 'blog-post'
    : path === '/embed'
      ? 'feed'
      : WIDGET_NAMES.find((n) => n !== 'feed' && n !== 'blog-post' && path === `/embed/${n}`);
  if (!name) return null;
  const spec = WIDGETS[name];
  const query = new URLSearchParams(search);
  return {
    spec,
    postId: post ? decoded(post[1]!) : null,
    options: {
      limit: limitOf(query.get('limit'), spec.defaultLimit),
      featured: spec.filters.includes('featured') ? tristate(query.get('featured')) : null,
      pinned: spec.filters.includes('pinned') ? tristate(query.get('pinned')) : null,
      compact: spec.filters.includes('compact') && flag(query.get('compact')),
      transparent: query.get('bg') === 'transparent' || flag(query.get('transparent')),
    },
  };
}

/** What a site owner picks on the staff page; each becomes a data-* attribute of the snippet and a query option. */
export interface WidgetChoice {
  limit: number | null;
  transparent: boolean;
  featured: boolean;
  pinned: boolean;
  compact: boolean;
  postId: string;
}

export function defaultChoice(spec: WidgetSpec): WidgetChoice {
  return { limit: spec.defaultLimit, transparent: false, featured: false, pinned: false, compact: false, postId: '' };
}

/** The options as the loader passes them on: data-limit="3" becomes ?limit=3. */
export function widgetOptionPairs(spec: WidgetSpec, choice: WidgetChoice): [string, string][] {
  const pairs: [string, string][] = [];
  if (spec.defaultLimit !== null && choice.limit !== null) pairs.push(['limit', String(choice.limit)]);
  if (choice.featured && spec.filters.includes('featured')) pairs.push(['featured', 'true']);
  if (choice.pinned && spec.filters.includes('pinned')) pairs.push(['pinned', 'true']);
  if (choice.compact && spec.filters.includes('compact')) pairs.push(['compact', '1']);
  if (choice.transparent) pairs.push(['transparent', '1']);
  return pairs;
}

/** The address the loader makes for this choice, for the staff page's preview. */
export function widgetUrl(origin: string, spec: WidgetSpec, choice: WidgetChoice): string {
  const query = new URLSearchParams(widgetOptionPairs(spec, choice)).toString();
  return `${origin}${widgetPath(spec.name, choice.postId)}${query ? `?${query}` : ''}`;
}

const attribute = (value: string) => value.replace(/&/gu, '&amp;').replace(/"/gu, '&quot;').replace(/</gu, '&lt;');

/** The HTML a site owner pastes: the loader and the widget's placeholder. */
export function widgetSnippet(origin: string, spec: WidgetSpec, choice: WidgetChoice): string {
  const attributes = [
    ['bhc-widget', spec.name],
    ...(spec.kind === 'blog-post' ? [['id', choice.postId]] : []),
    ...widgetOptionPairs(spec, choice),
  ];
  const data = attributes.map(([name, value]) => ` data-${name}="${attribute(value!)}"`).join('');
  return `<script src="${origin}/embed.js" async></script>\n<div${data}></div>`;
}
