/**
 * What each public page's one markup (shared/public-pages/views.tsx) is drawn from: plain, serialisable props. The
 * server fills them from the read models, renders the view with them, and writes them into the page beside it
 * (`PUBLIC_PAGE_PROPS_ID`), so the visitor's browser hydrates the same view with the same props
 * (docs/domain/shell.md#public-pages). Only what the page shows goes in: never a meeting link or a member's e-mail.
 */
import type { Media } from '../media/schemas';

/** The `<script type="application/json">` holding the page's props. */
export const PUBLIC_PAGE_PROPS_ID = 'public-page-props';
/** The element the server renders the view into, and the browser hydrates. */
export const PUBLIC_PAGE_ROOT_ID = 'prerendered';

/** A published blog post as its public page shows it. */
export interface PublicPost {
  id: string;
  slug: string;
  title: string;
  authorName: string;
  publishedAt: string | null;
  tags: string[];
  media: Media | null;
  excerpt: string;
  /** Sanitised when saved (an allow-list of tags and attributes). */
  content: string;
}

/** A post in a list of the blog: what its card shows. */
export interface PublicPostSummary {
  id: string;
  slug: string;
  title: string;
  authorName: string;
  /** When it was published (or shown, for an older post without the date). */
  at: string;
  excerpt: string;
  tags: string[];
  media: Media | null;
}

/** A page of the blog (or of a tag): its posts, newest first, and the pages beside it. */
export interface PublicBlogList {
  heading: string;
  intro: string;
  posts: PublicPostSummary[];
  /** The newer and older pages' addresses; null where there is none. */
  newer: string | null;
  older: string | null;
  /** The tag's feed, on a tag's page. */
  feed?: string;
}

/** A public approved event as its page shows it. */
export interface PublicEvent {
  id: string;
  title: string;
  /** The event type's label ("Reunion"). */
  typeLabel: string;
  isCancelled: boolean;
  startDate: string;
  endDate: string;
  allDay: boolean;
  /** The site's zone, in which `when` is written (the reader's own is added in the browser). */
  timeZone: string;
  /** The event's time in the site's zone, naming it ("… 7:00 PM CST"). */
  when: string;
  /** Where: the place's name (and "Online"), its address on one line (or ''), its OpenStreetMap link. */
  place: string;
  address: string;
  map: string | null;
  organizer: string;
  /** "3 of 40 places taken". */
  places: string;
  description: string;
  media: Media | null;
}

/** Every public page the server renders and the browser hydrates; `year` is the footer's. */
export type PublicPageProps =
  | { page: 'landing' }
  | { page: 'blog-post'; year: number; post: PublicPost }
  | { page: 'blog-list'; year: number; list: PublicBlogList }
  | { page: 'blog-missing'; year: number; tag: string | null }
  | { page: 'event'; year: number; event: PublicEvent };

/**
 * The props as the page carries them, inside `<script type="application/json">`: JSON with every `<` written
 * `\u003c`, so no text of a member's ("</script>", "<!--") can end or change the element; U+2028 and U+2029 too.
 */
export const serialisePublicPageProps = (props: PublicPageProps) =>
  JSON.stringify(props).replace(/[<\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
