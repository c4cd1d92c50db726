/**
 * The public pages' HTML (docs/domain/shell.md#public-pages): the landing page, each published blog post and each
 * public approved event, sent with their content, link-preview tags (Open Graph, Twitter), JSON-LD and the feeds'
 * autodiscovery links, so crawlers, chat previews and visitors without JavaScript read them; the app takes over in
 * the browser. A signed-in reader gets the tags only: their pages are the app's. Members-only, unpublished and
 * unapproved items get nothing: no title, no tags. The body is the page's one markup (shared/public-pages/views.tsx),
 * rendered here with renderToString from plain props that go into the page beside it, for the browser to hydrate.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { uncached, type ReadCache } from '../http/read-cache';
import type { DocumentStore } from '../../platform/document-store/port';
import { findBlogPost, readingPage, type BlogPostDocument } from '../../projections/blog';
import { DomainError } from '../../shared/domain';
import { eventDetails, type EventDetailsDocument } from '../../projections/events';
import { EVENT_TYPE_LABELS } from '../../shared/events/constants';
import { addressLine, mapLink, placeLine, placesLine } from '../../shared/events/summary-lines';
import { htmlToText } from '../../shared/blog/excerpt';
import { formatEventTime } from '../../shared/events/event-times';
import { SITE_DESCRIPTION, SITE_NAME } from '../../shared/landing';
import { truncate } from '../../shared/text';
import type { Media } from '../../shared/media/schemas';
import { blogData, blogPostingData, eventData, organizationData, siteImage, type StructuredData } from './structured-data';
import { PublicPageView, tagPath } from '../../shared/public-pages/views';
import {
  PUBLIC_PAGE_PROPS_ID,
  PUBLIC_PAGE_ROOT_ID,
  serialisePublicPageProps,
  type PublicBlogList,
  type PublicPageProps,
} from '../../shared/public-pages/props';

/** What a page adds to the app's HTML: its head, and for a visitor its content and the props it was rendered from. */
export interface PublicPage {
  head: string;
  body: { html: string; props: PublicPageProps } | null;
}

/** A visitor's page: the shared view rendered with its props (hydrated in the browser with the same). */
export const renderPublicPage = (props: PublicPageProps) => ({
  html: renderToString(createElement(PublicPageView, { props })),
  props,
});

interface PageMeta {
  title: string;
  description: string;
  path: string;
  type: 'website' | 'article';
  image: string;
  /** The picture's size when the page knows it (its own upload's). */
  imageSize?: { width: number; height: number } | undefined;
  data: StructuredData;
  publishedTime?: string;
  modifiedTime?: string;
  /** More `<link>`s: the pages before and after, a tag's own feed. */
  links?: { rel: string; href: string; type?: string; title?: string }[];
}

/** Posts on a page of the blog: a phone's few screens, two columns of six on a wide one. */
export const BLOG_PAGE_SIZE = 12;

/** Which page of the blog a visitor asks for: all posts or a tag's, after or before a post (the cursors the links carry). */
export interface BlogListRequest {
  tag?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** Descriptions as previews show them: one paragraph of plain text. */
const DESCRIPTION_LENGTH = 200;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON inside a script element: no "</script>" or "<!--" can close or change it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</gu, '\\u003c');

export function headTags(meta: PageMeta, siteUrl: string): string {
  const url = `${siteUrl}${meta.path}`;
  const property = (name: string, content: string) => `<meta property="${name}" content="${escapeHtml(content)}" />`;
  const named = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}" />`;
  return [
    `<title>${escapeHtml(meta.title)}</title>`,
    named('description', meta.description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...(meta.links ?? []).map(
      (link) =>
        `<link rel="${link.rel}" href="${escapeHtml(link.href.startsWith('/') ? `${siteUrl}${link.href}` : link.href)}"${link.type ? ` type="${link.type}"` : ''}${link.title ? ` title="${escapeHtml(link.title)}"` : ''} />`,
    ),
    property('og:site_name', SITE_NAME),
    property('og:type', meta.type),
    property('og:title', meta.title),
    property('og:description', meta.description),
    property('og:url', url),
    property('og:image', meta.image),
    ...(meta.imageSize
      ? [property('og:image:width', String(meta.imageSize.width)), property('og:image:height', String(meta.imageSize.height))]
      : []),
    ...(meta.publishedTime ? [property('article:published_time', meta.publishedTime)] : []),
    ...(meta.modifiedTime ? [property('article:modified_time', meta.modifiedTime)] : []),
    named('twitter:card', 'summary_large_image'),
    named('twitter:title', meta.title),
    named('twitter:description', meta.description),
    named('twitter:image', meta.image),
    `<script type="application/ld+json">${scriptJson(meta.data)}</script>`,
  ].join('\n    ');
}

interface PageImage {
  url: string;
  size?: { width: number; height: number } | undefined;
}

/** An upload's picture as a link preview needs it: an absolute address, with its size. */
function uploadImage(media: Media | null | undefined, siteUrl: string): PageImage | null {
  if (!media || media.kind !== 'image') return null;
  return { url: `${siteUrl}${media.url}`, size: media.width && media.height ? { width: media.width, height: media.height } : undefined };
}

/** The post's own first picture: on the web, or one of our uploads (`/media/…`, made absolute, with the size its tag gives). */
function firstImage(html: string, siteUrl: string): PageImage | null {
  const tag = html.match(/<img\b[^>]*?\ssrc="(?:https?:\/\/|\/media\/)[^"]+"[^>]*>/iu)?.[0];
  if (!tag) return null;
  const src = tag.match(/\ssrc="([^"]+)"/u)![1]!.replace(/&amp;/gu, '&');
  const width = Number(tag.match(/\swidth="(\d+)"/u)?.[1]);
  const height = Number(tag.match(/\sheight="(\d+)"/u)?.[1]);
  return {
    url: src.startsWith('/') ? `${siteUrl}${src}` : src,
    size: src.startsWith('/') && width && height ? { width, height } : undefined,
  };
}

const pageTitle = (title: string) => `${title} | ${SITE_NAME}`;

/** `cached` keeps the rendered pages until the next event (server/http/read-cache.ts): rendering is most of a page's cost. */
export function publicPages({
  store,
  siteUrl,
  timeZone,
  now,
  cached = uncached,
}: {
  store: DocumentStore;
  siteUrl: string;
  /** The site's zone now (admins may change it): event times are shown and named in it. */
  timeZone: () => Promise<string>;
  now: () => Date;
  cached?: ReadCache;
}) {
  const year = () => now().getUTCFullYear();

  /** The landing page does not change while the process runs: rendered once for visitors, once for members. */
  const landings = new Map<boolean, PublicPage>();
  function landing(signedIn: boolean): PublicPage {
    const kept = landings.get(signedIn);
    if (kept) return kept;
    const head = headTags(
      {
        title: SITE_NAME,
        description: SITE_DESCRIPTION,
        path: '/',
        type: 'website',
        image: siteImage(siteUrl),
        data: organizationData(siteUrl),
      },
      siteUrl,
    );
    const page = { head, body: signedIn ? null : renderPublicPage({ page: 'landing' }) };
    landings.set(signedIn, page);
    return page;
  }

  /** A published post at its slug; null for any other address. */
  function blogPost(slug: string, signedIn: boolean): Promise<PublicPage | null> {
    return cached(`blog:${slug.toLowerCase()}:${signedIn}:${year()}`, () => renderBlogPost(slug, signedIn));
  }

  /**
   * Where a post's other address (its id, an earlier slug) leads: `/blog/<slug>`, for a post the reader may see
   * (published, or any post for staff); null when the address is the post's own or no post's.
   */
  async function blogPostMoved(address: string, staff: boolean): Promise<string | null> {
    const found = await findBlogPost(store, address);
    return found?.moved && (found.post.isPublished || staff) ? `/blog/${encodeURIComponent(found.post.slug)}` : null;
  }

  async function renderBlogPost(slug: string, signedIn: boolean): Promise<PublicPage | null> {
    const found = await findBlogPost(store, slug);
    const post: BlogPostDocument | null = found && !found.moved && found.post.isPublished ? found.post : null;
    if (!post) return null;
    // The post's cover, else its first picture, else the site's.
    const own = uploadImage(post.media, siteUrl) ?? firstImage(post.content, siteUrl);
    const image = own?.url ?? siteImage(siteUrl);
    const meta: PageMeta = {
      title: pageTitle(post.title),
      description: truncate(post.excerpt || htmlToText(post.content), DESCRIPTION_LENGTH),
      path: `/blog/${post.slug}`,
      type: 'article',
      image,
      imageSize: own?.size,
      data: blogPostingData(post, siteUrl, image),
      ...(post.publishedAt ? { publishedTime: post.publishedAt } : {}),
      modifiedTime: post.updatedAt,
    };
    const body = signedIn
      ? null
      : renderPublicPage({
          page: 'blog-post',
          year: year(),
          post: {
            id: post._id,
            slug: post.slug,
            title: post.title,
            authorName: post.author.name,
            publishedAt: post.publishedAt ?? null,
            tags: post.tags,
            media: post.media ?? null,
            excerpt: post.excerpt,
            content: post.content,
          },
        });
    return { head: headTags(meta, siteUrl), body };
  }

  /** A public approved event; null for any other id. */
  function event(id: string, signedIn: boolean): Promise<PublicPage | null> {
    return cached(`event:${id}:${signedIn}:${year()}`, () => renderEvent(id, signedIn));
  }

  async function renderEvent(id: string, signedIn: boolean): Promise<PublicPage | null> {
    const found: EventDetailsDocument | null = await eventDetails(store).findOne({ _id: id, status: 'approved', isPublic: true });
    if (!found) return null;
    const own = uploadImage(found.media, siteUrl);
    const image = own?.url ?? siteImage(siteUrl);
    const zone = await timeZone();
    const when = formatEventTime(found, { timeZone: zone });
    const cancelled = found.isCancelled ? 'Cancelled' : '';
    const meta: PageMeta = {
      title: pageTitle(cancelled ? `Cancelled: ${found.title}` : found.title),
      description: truncate([cancelled, when, found.location, found.description].filter(Boolean).join(' · '), DESCRIPTION_LENGTH),
      path: `/events/${found._id}`,
      type: 'website',
      image,
      imageSize: own?.size,
      data: eventData(found, siteUrl, image),
    };
    const body = signedIn
      ? null
      : renderPublicPage({
          page: 'event',
          year: year(),
          event: {
            id: found._id,
            title: found.title,
            typeLabel: EVENT_TYPE_LABELS[found.eventType],
            isCancelled: Boolean(found.isCancelled),
            startDate: found.startDate,
            endDate: found.endDate,
            allDay: found.allDay,
            timeZone: zone,
            when,
            place: placeLine(found),
            address: addressLine(found.address),
            map: mapLink(found),
            organizer: `${found.organizer.firstName} ${found.organizer.lastName}`,
            places: placesLine(found),
            description: found.description,
            media: found.media ?? null,
          },
        });
    return { head: headTags(meta, siteUrl), body };
  }

  /**
   * A page of the blog's published posts, or of a tag's; for a member its head only (their page is the app's). `found`
   * false for a tag no published post carries, or a page that is no page (a cursor not made here): answered 404.
   */
  function blogList(request: BlogListRequest, signedIn: boolean): Promise<{ page: PublicPage; found: boolean }> {
    const key = JSON.stringify([request.tag ?? null, request.after ?? null, request.before ?? null, signedIn, year()]);
    return cached(`blog-list:${key}`, () => renderBlogList(request, signedIn));
  }

  async function renderBlogList(request: BlogListRequest, signedIn: boolean): Promise<{ page: PublicPage; found: boolean }> {
    const { tag, after, before } = request;
    const base = tag === undefined ? '/blog' : tagPath(tag);
    let found;
    try {
      found = await readingPage(store, { limit: BLOG_PAGE_SIZE, tag, after, before });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      found = null;
    }
    const missing = !found || (found.items.length === 0 && (tag !== undefined || after !== undefined || before !== undefined));
    const query =
      after !== undefined ? `?after=${encodeURIComponent(after)}` : before !== undefined ? `?before=${encodeURIComponent(before)}` : '';
    const later = Boolean(query);
    const feed = tag === undefined ? undefined : `/rss?tag=${encodeURIComponent(tag)}`;
    const heading = tag === undefined ? 'Blog' : `Posts tagged “${tag}”`;
    const title = pageTitle(`${heading}${later ? ' (older posts)' : ''}`);
    const description =
      tag === undefined
        ? 'Stories, research and memories from the history of broadcasting in our state, by the Broadcast History Community.'
        : `Blog posts tagged “${tag}”: stories, research and memories from the Broadcast History Community.`;
    const newer = found?.newer == null ? null : found.newer === '' ? base : `${base}?before=${encodeURIComponent(found.newer)}`;
    const older = found?.older == null ? null : `${base}?after=${encodeURIComponent(found.older)}`;
    const path = `${base}${query}`;
    const meta: PageMeta = {
      title,
      description,
      path,
      type: 'website',
      image: siteImage(siteUrl),
      data: blogData(found?.items ?? [], { url: `${siteUrl}${path}`, name: heading, description }, siteUrl),
      links: [
        ...(newer ? [{ rel: 'prev', href: newer }] : []),
        ...(older ? [{ rel: 'next', href: older }] : []),
        ...(feed ? [{ rel: 'alternate', href: feed, type: 'application/rss+xml', title: `${SITE_NAME} blog: ${tag}` }] : []),
      ],
    };
    const list: PublicBlogList = {
      heading,
      intro: tag === undefined ? 'Stories, research and memories from the community.' : 'Every published post with this tag, newest first.',
      posts: (found?.items ?? []).map((post) => ({
        id: post._id,
        slug: post.slug,
        title: post.title,
        authorName: post.author.name,
        at: post.publishedAt ?? post.shownAt,
        excerpt: post.excerpt,
        tags: post.tags,
        media: post.media ?? null,
      })),
      newer,
      older,
      ...(feed ? { feed } : {}),
    };
    const body = signedIn
      ? null
      : renderPublicPage(missing ? { page: 'blog-missing', year: year(), tag: tag ?? null } : { page: 'blog-list', year: year(), list });
    return { page: { head: headTags(meta, siteUrl), body }, found: !missing };
  }

  return { landing, blogPost, blogPostMoved, event, blogList };
}

export type PublicPages = ReturnType<typeof publicPages>;

/**
 * The app's built index.html (which names the feeds for autodiscovery on every page) with a page's head in
 * place of its default title and description, and for a visitor the page's content beside the app's root with the
 * props it was rendered from (JSON, every `<` escaped), which the browser hydrates (client/public-page.tsx); a page
 * with content starts from the first-paint version of index.html (server/http/client.ts).
 */
export function withPublicPage(templates: { app: string; firstPaint: string }, page: PublicPage | null): string {
  let html = page?.body ? templates.firstPaint : templates.app;
  if (!page) return html;
  // Replacer functions: a replacement string would read `$&`, `$'` and `` $` `` in a member's title as patterns.
  html = html
    .replace(/<title>[^<]*<\/title>\s*/u, '')
    .replace(/<meta name="description"[^>]*>\s*/u, '')
    .replace('</head>', () => `  ${page.head}\n  </head>`);
  const { body } = page;
  if (body)
    html = html
      .replace('<body>', () => `<body data-prerendered>\n    <div id="${PUBLIC_PAGE_ROOT_ID}">${body.html}</div>`)
      .replace(
        '</body>',
        () => `  <script type="application/json" id="${PUBLIC_PAGE_PROPS_ID}">${serialisePublicPageProps(body.props)}</script>\n  </body>`,
      );
  return html;
}
