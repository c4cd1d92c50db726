/**
 * What the widgets read: the public API calls (docs/domain/embeds.md#content) with the widget's
 * options, always anonymous (an embed shows the same to every visitor of the
 * site it sits on), and the change notices that make each one stale.
 */
import type { components, paths } from '../lib/api-schema';
import type { WidgetRequest } from './widgets';

/** What a widget shows: the answers of the public API, typed from the same contract as the app (client/lib/api-schema.ts). */
export type FeedPost = components['schemas']['Post'];
export type BlogPost = components['schemas']['BlogPost'];
/** The spec's widget entity calls the all-day flag isAllDay; the API's event calls it allDay. */
export type WidgetEvent = Omit<components['schemas']['CalendarEvent'], 'allDay'> & { isAllDay: boolean };

/** The success answer (200, JSON) of the GET at `path`, as the document has it. */
type Answer<P extends keyof paths> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer A } } } }
  ? A
  : never;

export type WidgetData =
  | { kind: 'feed'; posts: FeedPost[] }
  | { kind: 'events'; events: WidgetEvent[] /** The site's zone: times are shown and named in it. */; timeZone: string }
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

/**
 * A read of the operation at `path` (its address, `url`, built by widgetSource). Types only: the widget's bundle
 * stays a plain fetch, without the app's client, and the answer is the one the document gives for that path.
 */
async function getJson<P extends keyof paths>(_path: P, url: string): Promise<Answer<P>> {
  const response = await fetch(url, { credentials: 'omit', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new HttpError(response.status);
  return (await response.json()) as Answer<P>;
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
      return { kind: 'feed', posts: (await getJson('/api/posts', url)).items };
    case 'events': {
      const [{ items }, site] = await Promise.all([getJson('/api/events', url), getJson('/api/site', '/api/site')]);
      return {
        kind: 'events',
        events: items.map(({ allDay, ...event }) => ({ ...event, isAllDay: allDay })),
        timeZone: site.timeZone,
      };
    }
    case 'blog':
      return { kind: 'blog', posts: (await getJson('/api/blog', url)).items };
    case 'blog-post':
      try {
        return { kind: 'blog-post', post: await getJson('/api/blog/{id}', url) };
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return { kind: 'blog-post', post: null };
        throw error;
      }
  }
}
