/**
 * What search engines are told (docs/domain/shell.md#crawlers): robots.txt as plain text, naming the sitemap;
 * sitemap.xml of the pages a visitor can read without an account: the site's pages, published blog posts and
 * public approved events, each with the date it last changed, read from the read models on each request.
 */
import type { FastifyInstance } from 'fastify';
import type { DocumentStore } from '../../platform/document-store/port';
import { sitePages } from '../../projections/site-pages';
import { blogPosts } from '../../projections/blog';
import { eventDetails } from '../../projections/events';
import { SITE_PAGE_SLUGS } from '../../shared/site-pages/schemas';
import { routeOptions } from '../http/openapi';

/** Pages that show a visitor their content; everything else of the app asks them to sign in first. */
export const PUBLIC_PAGES = ['/', '/login', '/register', '/subscribe'] as const;

/** The app's members-only and private paths, and the API: nothing there for a crawler. */
const DISALLOWED = [
  '/api/',
  '/admin',
  '/events/manage',
  '/monitoring',
  '/mailbox',
  '/subscription-settings',
  '/discussions',
  '/trending',
  '/bookmarks',
  '/notifications',
  '/unsubscribe',
  '/subscribe/confirm',
  '/embed',
];

export function robotsTxt(siteUrl: string): string {
  return ['User-agent: *', 'Allow: /', ...DISALLOWED.map((path) => `Disallow: ${path}`), '', `Sitemap: ${siteUrl}/sitemap.xml`, ''].join(
    '\n',
  );
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export function sitemapXml(siteUrl: string, pages: readonly { path: string; lastmod?: string }[]): string {
  const urls = pages.map(
    ({ path, lastmod }) =>
      `  <url>\n    <loc>${escapeXml(`${siteUrl}${path}`)}</loc>\n${lastmod ? `    <lastmod>${escapeXml(lastmod)}</lastmod>\n` : ''}  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export async function crawlerRoutes(app: FastifyInstance, { siteUrl, store }: { siteUrl: string; store: DocumentStore }) {
  const route = routeOptions(['pages']);
  /** A file for crawlers, read fresh and cached for an hour; documented by its media type. */
  const crawlerFile = (path: string, summary: string, contentType: string, body: () => string | Promise<string>) =>
    app.get(path, route('public', summary, { response: { 200: { description: path.slice(1), contentType } } }), async (_request, reply) =>
      reply
        .header('Cache-Control', 'public, max-age=3600')
        .type(`${contentType}; charset=utf-8`)
        .send(await body()),
    );
  crawlerFile('/robots.txt', 'Which paths crawlers may read, and where the sitemap is', 'text/plain', () => robotsTxt(siteUrl));
  crawlerFile('/sitemap.xml', 'The pages a visitor can read without an account', 'application/xml', async () =>
    sitemapXml(siteUrl, [...PUBLIC_PAGES.map((path) => ({ path })), ...(await sitePageEntries(store)), ...(await itemEntries(store))]),
  );
}

/** The site's own pages (About, Privacy, …), each with the date an admin last edited it. */
async function sitePageEntries(store: DocumentStore) {
  const edited = new Map((await sitePages(store).find({}, { fields: ['updatedAt'] })).map((page) => [page._id, page.updatedAt]));
  return SITE_PAGE_SLUGS.map((slug) => ({ path: `/${slug}`, ...(edited.has(slug) ? { lastmod: edited.get(slug)! } : {}) }));
}

/** A sitemap holds at most 50,000 addresses; the site's pages leave room for this many of each kind. */
const SITEMAP_ITEMS_PER_KIND = 20_000;

/** Published blog posts and public approved events, newest change first. */
async function itemEntries(store: DocumentStore) {
  const options = { sort: { updatedAt: -1 }, limit: SITEMAP_ITEMS_PER_KIND, fields: ['updatedAt'] } as const;
  const postOptions = { ...options, fields: ['updatedAt', 'slug'] } as const;
  const [posts, events] = await Promise.all([
    blogPosts(store).find({ isPublished: true }, postOptions),
    eventDetails(store).find({ status: 'approved', isPublic: true }, options),
  ]);
  return [
    ...posts.map((post) => ({ path: `/blog/${post.slug}`, lastmod: post.updatedAt })),
    ...events.map((event) => ({ path: `/events/${event._id}`, lastmod: event.updatedAt })),
  ];
}
