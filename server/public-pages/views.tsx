/**
 * The HTML of the public pages as the server sends it (docs/domain/shell.md#public-pages): the content a crawler,
 * a link preview or a visitor without JavaScript reads, laid out like the app's pages so the app can take over
 * without a jump. Text goes in as React children, which React escapes; a blog post's HTML was sanitised when saved.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { EVENT_TYPE_LABELS } from '../../shared/events/constants';
import { formatEventTime } from '../../shared/events/event-times';
import { placeLine, placesLine } from '../../shared/events/summary-lines';
import { excerptRepeatsBody } from '../../shared/blog/excerpt';
import { LANDING, LANDING_FOOTER, SITE_NAME } from '../../shared/landing';
import type { BlogPostDocument } from '../../projections/blog';
import type { EventDetailsDocument } from '../../projections/events';
import type { Media } from '../../shared/media/schemas';

export const renderView = (view: ReactNode) => renderToStaticMarkup(view);

/** A post's or event's own picture (its upload), with its width and height so the page keeps its place while it loads. */
function Cover({ media, className }: { media: Media | null | undefined; className: string }) {
  if (!media || media.kind !== 'image') return null;
  return <img src={media.url} width={media.width} height={media.height} alt="" className={className} />;
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

function PublicFrame({ children, year }: { children: ReactNode; year: number }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="bg-brand-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 px-4 py-3">
          <a href="/" className="font-bold">
            {SITE_NAME}
          </a>
          <nav aria-label="Site" className="flex gap-2">
            {[
              ['Home', '/'],
              ['About', '/about'],
              ['Sign in', '/login'],
            ].map(([label, href]) => (
              <a key={href} href={href} className="inline-flex min-h-11 items-center px-2 hover:text-amber-300">
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
    <PublicFrame year={year}>
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
        <Cover media={post.media} className="mt-6 h-auto max-h-[32rem] w-full rounded-xl object-cover" />
        {post.excerpt && !excerptRepeatsBody(post.excerpt, post.content) && (
          <blockquote className="mt-6 border-l-4 border-amber-accent pl-4 text-lg text-slate-700 italic dark:text-slate-300">
            {post.excerpt}
          </blockquote>
        )}
        <div className="blog-content mt-6 space-y-4 leading-relaxed" dangerouslySetInnerHTML={{ __html: post.content }} />
        <p className="mt-8 border-t border-slate-200 pt-6 dark:border-slate-800">
          <a href="/register" className={LINK}>
            Join the community to read more
          </a>
        </p>
      </article>
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
            <dd>{placeLine(event)}</dd>
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
