/**
 * What the widgets read: the public API calls (docs/domain/embeds.md#content) with the widget's
 * options, always anonymous (an embed shows the same to every visitor of the
 * site it sits on), and the change notices that make each one stale.
 */
import type { WidgetRequest } from './widgets';

export interface FeedPost {
  id: string;
  content: string;
  mediaType: 'image' | 'video' | 'audio' | 'youtube' | 'link' | null;
  mediaUrl: string | null;
  mediaTitle: string | null;
  tags: string[];
  likesCount: number;
  commentsCount: number;
  isPinned: boolean;
  createdAt: string;
  author: { name: string; avatar: string | null; role: string };
}

/** The spec's widget entity calls the all-day flag isAllDay; the API's event calls it allDay. */
export interface WidgetEvent {
  id: string;
  title: string;
  description?: string | null;
  eventType: string;
  location?: string | null;
  isVirtual: boolean;
  startDate: string;
  endDate: string;
  isAllDay: boolean;
  isFeatured: boolean;
  attendeeCount: number;
  maxAttendees?: number | null;
  tags: string[];
}

export interface BlogPost {
  id: string;
  title: string;
  /** Its address on the site: `/blog/<slug>`. */
  slug: string;
  excerpt: string;
  content: string;
  tags: string[];
  isPinned: boolean;
  isFeatured: boolean;
  publishedAt: string | null;
  createdAt: string;
  author: { name: string; role: string };
}

export type WidgetData =
  | { kind: 'feed'; posts: FeedPost[] }
  | { kind: 'events'; events: WidgetEvent[] }
  | { kind: 'blog'; posts: BlogPost[] }
  | { kind: 'blog-post'; post: BlogPost | null };

/** Which notices make a widget's data stale (docs/architecture.md#change-notices). */
export const NOTICES: Record<WidgetRequest['spec']['kind'], readonly string[]> = {
  feed: ['posts:changed'],
  events: ['events:changed', 'rsvp:changed'],
  blog: ['blog:changed'],
  'blog-post': ['blog:changed'],
};

export class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { credentials: 'omit', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new HttpError(response.status);
  return (await response.json()) as T;
}

/** Events from the start of the reader's day: a widget lists what is still to come, not the archive. */
export function startOfToday(now = new Date()): string {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.toISOString();
}

/** The API address a widget reads: the first page of a list, as long as the widget's limit. */
export function widgetSource({ spec, postId, options }: WidgetRequest, now = new Date()): string {
  const query = new URLSearchParams();
  if (options.limit !== null) query.set('limit', String(options.limit));
  if (options.featured !== null) query.set('featured', String(options.featured));
  if (options.pinned !== null) query.set('pinned', String(options.pinned));
  switch (spec.kind) {
    case 'feed':
      return `/api/posts?${query}`;
    case 'events':
      query.set('from', startOfToday(now));
      return `/api/events?${query}`;
    case 'blog':
      return `/api/blog?${query}`;
    case 'blog-post':
      return `/api/blog/${encodeURIComponent(postId ?? '')}`;
  }
}

export async function loadWidget(request: WidgetRequest): Promise<WidgetData> {
  const url = widgetSource(request);
  switch (request.spec.kind) {
    case 'feed':
      return { kind: 'feed', posts: (await getJson<{ items: FeedPost[] }>(url)).items };
    case 'events': {
      const { items } = await getJson<{ items: (Omit<WidgetEvent, 'isAllDay'> & { allDay: boolean })[] }>(url);
      return { kind: 'events', events: items.map(({ allDay, ...event }) => ({ ...event, isAllDay: allDay })) };
    }
    case 'blog':
      return { kind: 'blog', posts: (await getJson<{ items: BlogPost[] }>(url)).items };
    case 'blog-post':
      try {
        return { kind: 'blog-post', post: await getJson<BlogPost>(url) };
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return { kind: 'blog-post', post: null };
        throw error;
      }
  }
}
