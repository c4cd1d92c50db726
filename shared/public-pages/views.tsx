/**
 * The public pages' one markup (docs/domain/shell.md#public-pages): the landing page, a published blog post, a
 * page of the blog (or of a tag) and a public approved event, for a visitor. The server renders them with
 * renderToString (server/public-pages/pages.ts) and writes their props beside them; the browser hydrates the same
 * views with the same props (client/public-page.tsx), so what a crawler, a link preview, a visitor without
 * JavaScript and a visitor with it read is one thing. Plain props only: no data fetching, router or client state
 * here; the browser's additions (the subscribe form's request, a post's comments, the reader's own time zone) come
 * in as props and slots after hydration. Text goes in as React children, which React escapes; a blog post's HTML
 * was sanitised when saved.
 */
import type { ReactNode } from 'react';
import { LANDING, SITE_NAME } from '../landing';
import { excerptRepeatsBody } from '../blog/excerpt';
import type { Media } from '../media/schemas';
import { Icon } from '../ui/icon';
import { MAIN_CONTENT_ID, SkipLink } from '../ui/skip-link';
import type { PublicBlogList, PublicEvent, PublicPageProps, PublicPost, PublicPostSummary } from './props';
import { EventArticle } from './event-article';
import { FooterLink, LANDING_FOOTER, SITE_LINKS, SiteFrame } from './site-frame';
import { SubscribeFormView } from './subscribe-form';

/** The landing page's subscribe form's ids (the server's HTML and the hydrated form name them alike). */
export const LANDING_SUBSCRIBE_ID = 'landing-subscribe';

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
            {`#${tag}`}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Where a visitor goes to sign in and come back to the page they were on. */
export const signInThenBack = (path: string) => `/login?redirect=${encodeURIComponent(path)}`;

const LINK = 'inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent';

/** `current`: the header's link to the page shown (or to its section). */
function PublicFrame({ children, year, current }: { children: ReactNode; year: number; current?: string }) {
  return (
    <SiteFrame
      barClassName="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 px-4 py-3"
      bar={
        <>
          <a href="/" className="font-bold">
            {SITE_NAME}
          </a>
          <nav aria-label="Site" className="flex flex-wrap gap-x-1 sm:gap-x-2">
            {[SITE_LINKS.home, SITE_LINKS.about, SITE_LINKS.blog, SITE_LINKS.calendar, SITE_LINKS.signIn].map(({ label, href }) => (
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
        </>
      }
      year={year}
      footer={
        <nav aria-label="About the site" className="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 py-8 text-sm">
          {[...LANDING_FOOTER, SITE_LINKS.subscribe, SITE_LINKS.rss].map((link) => (
            <FooterLink key={link.href} {...link} />
          ))}
        </nav>
      }
    >
      {children}
    </SiteFrame>
  );
}

/**
 * What signed-out visitors see at `/`. Join Community opens registration, Sign In the sign-in page (through
 * /api/login, as the spec says). `subscribe`: the browser's working form in place of its first state.
 */
export function LandingView({ subscribe }: { subscribe?: ReactNode }) {
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
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto max-w-6xl px-4 pt-12 pb-20 outline-none">
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
              <Icon name={feature.icon} className="size-8 text-amber-300" />
              <h2 className="mt-3 text-lg font-semibold">{feature.title}</h2>
              <p className="mt-2 text-sm text-slate-200">{feature.text}</p>
            </li>
          ))}
        </ul>
        {subscribe ?? <SubscribeFormView id={LANDING_SUBSCRIBE_ID} />}
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

/** A published post for a visitor. `after`: what the browser adds below the article once hydrated (its comments). */
export function BlogPostView({ post, year, after }: { post: PublicPost; year: number; after?: ReactNode }) {
  return (
    <PublicFrame year={year} current="/blog">
      <article className="mx-auto max-w-3xl">
        <h1 className="mt-2 text-3xl font-bold md:text-4xl">{post.title}</h1>
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <span className="font-medium text-slate-900 dark:text-slate-100">{post.authorName}</span>
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
      {after}
    </PublicFrame>
  );
}

/** One post in a list: its cover, title, author and date, excerpt and tags. */
function PostSummary({ post, first }: { post: PublicPostSummary; first: boolean }) {
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
          {`${post.authorName} · `}
          <time dateTime={post.at}>{longDate(post.at)}</time>
        </p>
        {post.excerpt && <p className="mt-3 flex-1 text-slate-700 dark:text-slate-300">{post.excerpt}</p>}
        <TagLinks tags={post.tags} />
        <a href={`/blog/${post.slug}`} className={`mt-2 self-start ${LINK}`}>
          Read full post<span className="sr-only">{`: ${post.title}`}</span>
        </a>
      </article>
    </li>
  );
}

/** The blog's page (or a tag's) for visitors: a page of published posts, newest first, with links to the pages beside it. */
export function BlogListView({ list, year }: { list: PublicBlogList; year: number }) {
  return (
    <PublicFrame year={year} current="/blog">
      <div className="mx-auto max-w-5xl">
        <h1 className="text-3xl font-bold md:text-4xl">{list.heading}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {`${list.intro} `}
          <a href={list.feed ?? '/rss'} className="font-medium text-brand-600 underline dark:text-amber-accent">
            RSS feed
          </a>
        </p>
        {list.posts.length === 0 ? (
          <p className="mt-8 rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">No blog posts yet</p>
        ) : (
          <ul className="mt-8 grid gap-6 md:grid-cols-2">
            {list.posts.map((post, index) => (
              <PostSummary key={post.id} post={post} first={index === 0} />
            ))}
          </ul>
        )}
        {(list.newer || list.older) && (
          <nav aria-label="Pages" className="mt-8 flex flex-wrap justify-between gap-4">
            {list.newer ? (
              <a href={list.newer} rel="prev" className={LINK}>
                ← Newer posts
              </a>
            ) : (
              <span />
            )}
            {list.older && (
              <a href={list.older} rel="next" className={LINK}>
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
export function BlogMissingView({ tag, year }: { tag: string | null; year: number }) {
  return (
    <PublicFrame year={year} current="/blog">
      <div className="mx-auto max-w-3xl py-16 text-center">
        <h1 className="text-2xl font-bold">{tag === null ? 'Page not found' : `No posts tagged “${tag}”`}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {tag === null ? 'This page of the blog does not exist.' : 'No published post carries this tag.'}
        </p>
        <a href="/blog" className={`mt-6 ${LINK}`}>
          Browse all posts
        </a>
      </div>
    </PublicFrame>
  );
}

/** A public approved event for a visitor: its time as `event.when` says (the site's zone; the browser adds the reader's). */
export function EventView({ event, year }: { event: PublicEvent; year: number }) {
  const path = `/events/${event.id}`;
  return (
    <PublicFrame year={year}>
      <EventArticle
        cover={
          event.media?.kind === 'image' ? <Cover media={event.media} className="h-auto max-h-96 w-full rounded-xl object-cover" /> : null
        }
        kind={
          <p className="text-sm font-semibold text-brand-600 dark:text-amber-accent">
            {event.typeLabel}
            {event.isCancelled && <span className="ml-2 rounded-full bg-red-600 px-2 py-0.5 text-xs text-white">Cancelled</span>}
          </p>
        }
        title={event.title}
        when={
          <time dateTime={event.startDate} className={event.isCancelled ? 'line-through' : undefined}>
            {event.when}
          </time>
        }
        where={
          <>
            {event.place}
            {event.address && <span className="block">{event.address}</span>}
            {event.map && (
              <a href={event.map} className={LINK} rel="noopener" target="_blank">
                Show on a map (OpenStreetMap)
              </a>
            )}
          </>
        }
        organizer={`Organized by ${event.organizer}`}
        attending={event.places}
      >
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
            href={`/api/events/${event.id}/ics`}
            className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-5 font-medium dark:border-slate-600"
          >
            Add to calendar
          </a>
        </div>
      </EventArticle>
    </PublicFrame>
  );
}

/** What the browser adds to a page once it has taken it over; the server renders without them. */
export interface PublicPageSlots {
  subscribe?: ReactNode;
  postEnd?: ReactNode;
}

/** Any public page from its props: what the server renders and the browser hydrates. */
export function PublicPageView({ props, slots = {} }: { props: PublicPageProps; slots?: PublicPageSlots }) {
  switch (props.page) {
    case 'landing':
      return <LandingView subscribe={slots.subscribe} />;
    case 'blog-post':
      return <BlogPostView post={props.post} year={props.year} after={slots.postEnd} />;
    case 'blog-list':
      return <BlogListView list={props.list} year={props.year} />;
    case 'blog-missing':
      return <BlogMissingView tag={props.tag} year={props.year} />;
    case 'event':
      return <EventView event={props.event} year={props.year} />;
  }
}
