/**
 * The HTML of the public pages as the server sends it (docs/domain/shell.md#public-pages): the content a crawler,
 * a link preview or a visitor without JavaScript reads, laid out like the app's pages so the app can take over
 * without a jump. Text goes in as React children, which React escapes; a blog post's HTML was sanitised when saved.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { EVENT_TYPE_LABELS } from '../../shared/events/constants';
import { formatEventTime } from '../../shared/events/event-times';
import { addressLine, mapLink, placeLine, placesLine } from '../../shared/events/summary-lines';
import { excerptRepeatsBody } from '../../shared/blog/excerpt';
import { LANDING, LANDING_FOOTER, SITE_NAME } from '../../shared/landing';
import type { BlogPostDocument, ListedPost } from '../../projections/blog';
import type { EventDetailsDocument } from '../../projections/events';
import type { Media } from '../../shared/media/schemas';

export const renderView = (view: ReactNode) => renderToStaticMarkup(view);

/**
 * A post's or event's own picture (its upload), with its width and height so the page keeps its place while it loads.
 * A blog upload has the feed's 800-wide file beside its 1600 one: a phone takes the smaller. `first`: the page's
 * largest paint, fetched first; any other waits until it is near.
 */
function Cover({
  media,
  className,
  first = true,
  sizes,
}: {
  media: Media | null | undefined;
  className: string;
  first?: boolean;
  sizes?: string;
}) {
  if (!media || media.kind !== 'image') return null;
  const small = /\/blog\.webp$/u.test(media.url) ? media.url.replace(/\/blog\.webp$/u, '/feed.webp') : null;
  return (
    <img
      src={media.url}
      {...(small ? { srcSet: `${small} 800w, ${media.url} 1600w`, sizes: sizes ?? '(max-width: 800px) 100vw, 768px' } : {})}
      width={media.width}
      height={media.height}
      alt=""
      {...(first ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const, decoding: 'async' as const })}
      className={className}
    />
  );
}

/** A tag's page. */
export const tagPath = (tag: string) => `/blog/tag/${encodeURIComponent(tag)}`;

function TagLinks({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag}>
          <a
            href={tagPath(tag)}
            className="inline-flex min-h-11 items-center rounded-full bg-brand-50 px-3 text-sm font-medium text-brand-700 hover:bg-brand-100 dark:bg-slate-800 dark:text-amber-accent"
          >
            #{tag}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Where a visitor goes to sign in and come back to the page they were on. */
export const signInThenBack = (path: string) => `/login?redirect=${encodeURIComponent(path)}`;

/** The first Tab stop, as the app's (client/components/skip-link.tsx), working without script: the fragment focuses `main` (its own id: the app's #main may stand beside it, hidden, until it takes over). */
function SkipLink() {
  return (
    <a
      href="#content"
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100] focus:inline-flex focus:min-h-11 focus:items-center focus:rounded-md focus:bg-white focus:px-4 focus:font-semibold focus:text-brand-900 focus:shadow-lg focus:ring-2 focus:ring-amber-500 focus:outline-none"
    >
      Skip to content
    </a>
  );
}

const LINK = 'inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent';

/** `current`: the header's link to the page shown (or to its section). */
function PublicFrame({ children, year, current }: { children: ReactNode; year: number; current?: string }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="bg-brand-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 px-4 py-3">
          <a href="/" className="font-bold">
            {SITE_NAME}
          </a>
          <nav aria-label="Site" className="flex flex-wrap gap-x-1 sm:gap-x-2">
            {[
              ['Home', '/'],
              ['About', '/about'],
              ['Blog', '/blog'],
              ['Calendar', '/calendar'],
              ['Sign in', '/login'],
            ].map(([label, href]) => (
              <a
                key={href}
                href={href}
                aria-current={href === current ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center px-2 whitespace-nowrap ${href === current ? 'underline decoration-2 underline-offset-8' : 'hover:text-amber-300'}`}
              >
                {label}
              </a>
            ))}
          </nav>
        </div>
      </header>
      <main id="content" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 p-4 outline-none md:p-6">
        {children}
      </main>
      <footer className="bg-slate-900 text-slate-300">
        <nav aria-label="About the site" className="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 py-8 text-sm">
          {[...LANDING_FOOTER, { label: 'Subscribe', href: '/subscribe' }, { label: 'RSS', href: '/rss' }].map(({ label, href }) => (
            <a key={href} href={href} className="inline-flex min-h-6 items-center hover:text-white">
              {label}
            </a>
          ))}
        </nav>
        <p className="border-t border-white/10 py-4 text-center text-sm">
          © {year} {SITE_NAME}. All rights reserved.
        </p>
      </footer>
    </div>
  );
}

export function LandingView() {
  return (
    <div className="min-h-screen bg-gradient-to-b from-brand-900 via-brand-800 to-slate-900 text-white">
      <SkipLink />
      <header className="mx-auto flex max-w-6xl items-center justify-between px-4 py-5">
        <p className="flex items-center gap-2 text-lg font-bold">{SITE_NAME}</p>
        <a
          href="/api/login"
          className="inline-flex min-h-11 items-center rounded-md border border-white/40 px-4 text-sm font-medium hover:bg-white/10"
        >
          Sign In
        </a>
      </header>
      <main id="content" tabIndex={-1} className="mx-auto max-w-6xl px-4 pt-12 pb-20 outline-none">
        <p className="text-sm font-semibold tracking-widest text-amber-300 uppercase">{LANDING.eyebrow}</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold leading-tight md:text-6xl">{LANDING.headline}</h1>
        <p className="mt-6 max-w-2xl text-lg text-slate-200">{LANDING.lead}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <a
            href="/register"
            className="inline-flex min-h-11 items-center rounded-md bg-amber-400 px-6 font-semibold text-slate-950 hover:bg-amber-300"
          >
            Join Community
          </a>
          <a
            href="/api/login"
            className="inline-flex min-h-11 items-center rounded-md border border-white/40 px-6 font-semibold hover:bg-white/10"
          >
            Sign In
          </a>
        </div>
        <ul className="mt-16 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {LANDING.features.map((feature) => (
            <li key={feature.title} className="rounded-xl bg-white/10 p-5 backdrop-blur">
              <span aria-hidden="true" className="block size-8" />
              <h2 className="mt-3 text-lg font-semibold">{feature.title}</h2>
              <p className="mt-2 text-sm text-slate-200">{feature.text}</p>
            </li>
          ))}
        </ul>
        <p className="mt-16">
          <a href="/subscribe" className="inline-flex min-h-11 items-center font-semibold text-amber-300 underline">
            Get our e-mail updates
          </a>
        </p>
      </main>
      <footer className="border-t border-white/10">
        <nav aria-label="About the site" className="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 py-6 text-sm text-slate-200">
          {LANDING_FOOTER.map(({ label, href }) => (
            <a key={href} href={href} className="inline-flex min-h-6 items-center underline-offset-4 hover:text-white hover:underline">
              {label}
            </a>
          ))}
        </nav>
      </footer>
    </div>
  );
}

const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export function BlogPostView({ post, year }: { post: BlogPostDocument; year: number }) {
  return (
    <PublicFrame year={year} current="/blog">
      <article className="mx-auto max-w-3xl">
        <h1 className="mt-2 text-3xl font-bold md:text-4xl">{post.title}</h1>
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <span className="font-medium text-slate-900 dark:text-slate-100">{post.author.name}</span>
          {post.publishedAt && (
            <span>
              Published <time dateTime={post.publishedAt}>{longDate(post.publishedAt)}</time>
            </span>
          )}
        </p>
        <TagLinks tags={post.tags} />
        <Cover media={post.media} className="mt-6 h-auto max-h-[32rem] w-full rounded-xl object-cover" />
        {post.excerpt && !excerptRepeatsBody(post.excerpt, post.content) && (
          <blockquote className="mt-6 border-l-4 border-amber-accent pl-4 text-lg text-slate-700 italic dark:text-slate-300">
            {post.excerpt}
          </blockquote>
        )}
        <div className="blog-content mt-6 space-y-4 leading-relaxed" dangerouslySetInnerHTML={{ __html: post.content }} />
        <p className="mt-8 flex flex-wrap justify-between gap-4 border-t border-slate-200 pt-6 dark:border-slate-800">
          <a href="/register" className={LINK}>
            Join the community to read more
          </a>
          <a href="/blog" className={LINK}>
            Browse More Posts
          </a>
        </p>
      </article>
    </PublicFrame>
  );
}

/** One post in a list: its cover, title, author and date, excerpt and tags. */
function PostSummary({ post, first }: { post: ListedPost; first: boolean }) {
  const at = post.publishedAt ?? post.shownAt;
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <Cover
        media={post.media}
        first={first}
        sizes="(max-width: 768px) 100vw, 36rem"
        className="aspect-[16/9] h-auto w-full object-cover"
      />
      <article className="flex flex-1 flex-col p-5">
        <h2 className="text-xl font-semibold">
          <a href={`/blog/${post.slug}`} className="hover:underline">
            {post.title}
          </a>
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {post.author.name} · <time dateTime={at}>{longDate(at)}</time>
        </p>
        {post.excerpt && <p className="mt-3 flex-1 text-slate-700 dark:text-slate-300">{post.excerpt}</p>}
        <TagLinks tags={post.tags} />
        <a href={`/blog/${post.slug}`} className={`mt-2 self-start ${LINK}`}>
          Read full post<span className="sr-only">: {post.title}</span>
        </a>
      </article>
    </li>
  );
}

export interface BlogListPage {
  heading: string;
  intro: string;
  posts: ListedPost[];
  /** The newer and older pages' addresses; null where there is none. */
  newer: string | null;
  older: string | null;
  /** The tag's feed, on a tag's page. */
  feed?: string;
}

/** The blog's page (or a tag's) for visitors: a page of published posts, newest first, with links to the pages beside it. */
export function BlogListView({ page, year }: { page: BlogListPage; year: number }) {
  return (
    <PublicFrame year={year} current="/blog">
      <div className="mx-auto max-w-5xl">
        <h1 className="text-3xl font-bold md:text-4xl">{page.heading}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {page.intro}{' '}
          <a href={page.feed ?? '/rss'} className="font-medium text-brand-600 underline dark:text-amber-accent">
            RSS feed
          </a>
        </p>
        {page.posts.length === 0 ? (
          <p className="mt-8 rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">No blog posts yet</p>
        ) : (
          <ul className="mt-8 grid gap-6 md:grid-cols-2">
            {page.posts.map((post, index) => (
              <PostSummary key={post._id} post={post} first={index === 0} />
            ))}
          </ul>
        )}
        {(page.newer || page.older) && (
          <nav aria-label="Pages" className="mt-8 flex flex-wrap justify-between gap-4">
            {page.newer ? (
              <a href={page.newer} rel="prev" className={LINK}>
                ← Newer posts
              </a>
            ) : (
              <span />
            )}
            {page.older && (
              <a href={page.older} rel="next" className={LINK}>
                Older posts →
              </a>
            )}
          </nav>
        )}
      </div>
    </PublicFrame>
  );
}

/** A tag no published post carries, or a page of the blog that is none: said plainly, with the way back (answered 404). */
export function BlogTagMissingView({ tag, year }: { tag: string | undefined; year: number }) {
  return (
    <PublicFrame year={year} current="/blog">
      <div className="mx-auto max-w-3xl py-16 text-center">
        <h1 className="text-2xl font-bold">{tag === undefined ? 'Page not found' : `No posts tagged “${tag}”`}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {tag === undefined ? 'This page of the blog does not exist.' : 'No published post carries this tag.'}
        </p>
        <a href="/blog" className={`mt-6 ${LINK}`}>
          Browse all posts
        </a>
      </div>
    </PublicFrame>
  );
}

export function EventView({ event, timeZone, year }: { event: EventDetailsDocument; timeZone: string; year: number }) {
  const path = `/events/${event._id}`;
  return (
    <PublicFrame year={year}>
      <article className="mx-auto max-w-3xl">
        {event.media?.kind === 'image' && (
          <div className="mb-6">
            <Cover media={event.media} className="h-auto max-h-96 w-full rounded-xl object-cover" />
          </div>
        )}
        <p className="text-sm font-semibold text-brand-600 dark:text-amber-accent">
          {EVENT_TYPE_LABELS[event.eventType]}
          {event.isCancelled && <span className="ml-2 rounded-full bg-red-600 px-2 py-0.5 text-xs text-white">Cancelled</span>}
        </p>
        <h1 className="mt-2 text-3xl font-bold md:text-4xl">{event.title}</h1>
        <dl className="mt-4 grid gap-2 text-slate-700 dark:text-slate-300">
          <div>
            <dt className="sr-only">When</dt>
            <dd>
              <time dateTime={event.startDate} className={event.isCancelled ? 'line-through' : undefined}>
                {formatEventTime(event, { timeZone })}
              </time>
            </dd>
          </div>
          <div>
            <dt className="sr-only">Where</dt>
            <dd>
              {placeLine(event)}
              {addressLine(event.address) && <span className="block">{addressLine(event.address)}</span>}
              {mapLink(event) && (
                <a href={mapLink(event)!} className={LINK} rel="noopener" target="_blank">
                  Show on a map (OpenStreetMap)
                </a>
              )}
            </dd>
          </div>
          <div>
            <dt className="sr-only">Organizer</dt>
            <dd>
              Organized by {event.organizer.firstName} {event.organizer.lastName}
            </dd>
          </div>
          <div>
            <dt className="sr-only">Attending</dt>
            <dd>{placesLine(event)}</dd>
          </div>
        </dl>
        {event.description
          .split(/\n\s*\n/u)
          .filter((paragraph) => paragraph.trim())
          .map((paragraph, index) => (
            <p key={index} className="mt-4 leading-relaxed whitespace-pre-line">
              {paragraph.trim()}
            </p>
          ))}
        {event.isCancelled && (
          <p className="mt-6 rounded-md border border-red-300 bg-red-50 p-3 font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            This event was cancelled. It takes no more RSVPs.
          </p>
        )}
        <div className="mt-8 flex flex-wrap gap-3 border-t border-slate-200 pt-6 dark:border-slate-800">
          {!event.isCancelled && (
            <a
              href={signInThenBack(path)}
              className="inline-flex min-h-11 items-center rounded-md bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
            >
              Sign in to RSVP
            </a>
          )}
          <a
            href={`/api/events/${event._id}/ics`}
            className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-5 font-medium dark:border-slate-600"
          >
            Add to calendar
          </a>
        </div>
      </article>
    </PublicFrame>
  );
}
