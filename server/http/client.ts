/**
 * Serves the built client (dist/client): hashed assets cached for a year, other
 * files revalidated, each as the build's brotli or gzip copy to a client that
 * accepts it; the embed routes answered with the light embed page; the public
 * pages (landing, blog post, event) with their content and preview tags in the
 * HTML; and every other non-API path with index.html so the client's router takes over.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import * as v from 'valibot';
import { isEmbedPath } from '../embeds/paths';
import { THEME_SCRIPT } from './security-headers';
import { redirect, routeOptions } from './openapi';
import { STAFF } from './access';
import { withNoscriptConfirmForm, withNoscriptUnsubscribeForm } from '../subscriptions/link-pages';
import { withPublicPage, type PublicPage, type PublicPages } from '../public-pages/pages';
import { normalizeTag } from '../../shared/feed/tags';

export const CLIENT_DIR = resolve(import.meta.dirname, '../../dist/client');

function builtFile(urlPath: string): string | null {
  const path = resolve(CLIENT_DIR, `.${decodeURIComponent(urlPath)}`);
  if (!path.startsWith(CLIENT_DIR + sep)) return null;
  return existsSync(path) && statSync(path).isFile() ? path.slice(CLIENT_DIR.length + 1) : null;
}

/**
 * The app's page as a visitor's first page with its content already in it: the stylesheet and the theme script
 * inline, so nothing stands between the HTML and the first paint (style-src allows inline styles, script-src
 * that one script by its hash), and the app's modules left for its entry to fetch, so they do not compete with
 * the page for a slow connection.
 */
async function firstPaintPage(template: string): Promise<string> {
  const html = template
    .replace(/\s*<link rel="modulepreload"[^>]*>/gu, '')
    .replace('<script src="/theme.js"></script>', () => `<script>${THEME_SCRIPT}</script>`);
  const stylesheet = html.match(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/u);
  if (!stylesheet) return html;
  const css = await readFile(resolve(CLIENT_DIR, `.${stylesheet[1]}`), 'utf8');
  // Nothing in a stylesheet may end the element early.
  return html.replace(stylesheet[0], () => `<style>${css.replace(/<\/style/giu, '<\\/style')}</style>`);
}

export async function serveClient(app: FastifyInstance, { pages }: { pages: PublicPages }) {
  if (!existsSync(resolve(CLIENT_DIR, 'index.html'))) {
    app.log.warn(`No built client in ${CLIENT_DIR}: run "npm run build" to serve the site from this process`);
    return;
  }
  // Only reply.sendFile: our own route decides what is served, with its access declared, and its Cache-Control
  // (the plugin's own would replace it with max-age=0). The build's brotli and gzip copies go to clients that take them.
  await app.register(fastifyStatic, { root: CLIENT_DIR, serve: false, cacheControl: false, preCompressed: true });

  const route = routeOptions(['pages']);
  const APP_PAGE = { response: { 200: { description: 'The app’s page', contentType: 'text/html' } } };
  const TokenParams = v.object({ token: v.string() });
  const IdParams = v.object({ id: v.string() });
  const page = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  // The build does not change while the process runs.
  const template = await readFile(resolve(CLIENT_DIR, 'index.html'), 'utf8');
  const templates = { app: template, firstPaint: await firstPaintPage(template) };
  // A page kept by `pages` (until the next event) keeps its HTML too, encoded: not made nor encoded again per request
  // (the first paint's template carries the stylesheet, 60 KB).
  const html = new WeakMap<PublicPage, Buffer>();
  const htmlOf = (found: PublicPage | null) => {
    if (!found) return templates.app;
    let page = html.get(found);
    if (page === undefined) {
      page = Buffer.from(withPublicPage(templates, found));
      html.set(found, page);
    }
    return page;
  };
  /** The app's page with a public page in it (none: the bare app's); 404 unless `shown`. */
  const htmlPage = (reply: FastifyReply, found: PublicPage | null, shown: boolean) =>
    reply
      .status(shown ? 200 : 404)
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(htmlOf(found));
  /** A public page, or for an id that is not public the app's page: 404 to a visitor, the app decides for a member. */
  const publicPage = (reply: FastifyReply, found: PublicPage | null, signedIn: boolean) =>
    htmlPage(reply, found, found !== null || signedIn);
  app.get(
    '/',
    route('public', 'The landing page (its content in the HTML for visitors), or the newsfeed when signed in', APP_PAGE),
    (request, reply) => publicPage(reply, pages.landing(request.actor !== null), true),
  );
  const PUBLIC_ITEM = {
    ...APP_PAGE,
    params: IdParams,
    response: { ...APP_PAGE.response, 404: { description: 'Not a public item: the app’s page, which says so', contentType: 'text/html' } },
  };
  const BLOG_PAGE = {
    ...PUBLIC_ITEM,
    response: { ...PUBLIC_ITEM.response, 301: redirect('The post’s id or an earlier slug: to /blog/{slug}') },
  };
  const cursor = v.optional(v.pipe(v.string(), v.maxLength(2000)));
  const BlogListQuery = v.object({ after: cursor, before: cursor });
  const BLOG_LIST = {
    ...APP_PAGE,
    querystring: BlogListQuery,
    response: { ...APP_PAGE.response, 404: { description: 'Not a page of the blog: a page that says so', contentType: 'text/html' } },
  };
  /** A page of the blog: its posts in the HTML for a visitor (404 with a page that says so when there is none), the app for a member. */
  const blogList = async (
    reply: FastifyReply,
    signedIn: boolean,
    request: { tag?: string; after?: string | undefined; before?: string | undefined },
  ) => {
    const { page: found, found: exists } = await pages.blogList(request, signedIn);
    return htmlPage(reply, found, exists || signedIn);
  };
  app.get(
    '/blog',
    route('public', 'The blog: a page of published posts, newest first, in the HTML for visitors', BLOG_LIST),
    (request, reply) => {
      const { after, before } = request.query as v.InferOutput<typeof BlogListQuery>;
      return blogList(reply, request.actor !== null, { after, before });
    },
  );
  const TagParams = v.object({ tag: v.pipe(v.string(), v.maxLength(200)) });
  app.get(
    '/blog/tag/:tag',
    route('public', 'A tag’s published posts, newest first, in the HTML for visitors', {
      ...BLOG_LIST,
      params: TagParams,
      response: { ...BLOG_LIST.response, 301: redirect('The tag as posts carry it (lower case)') },
    }),
    (request, reply) => {
      const { tag } = request.params as v.InferOutput<typeof TagParams>;
      const { after, before } = request.query as v.InferOutput<typeof BlogListQuery>;
      const normal = normalizeTag(tag);
      if (normal !== tag && normal) {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.header('Cache-Control', 'no-cache').redirect(`/blog/tag/${encodeURIComponent(normal)}${query}`, 301);
      }
      return blogList(reply, request.actor !== null, { tag, after, before });
    },
  );
  app.get(
    '/blog/:id',
    route('public', 'A published blog post at its slug, its content, preview tags and BlogPosting JSON-LD in the HTML', BLOG_PAGE),
    async (request, reply) => {
      const { id } = request.params as v.InferOutput<typeof IdParams>;
      const moved = await pages.blogPostMoved(id, request.actor !== null && STAFF.includes(request.actor.role));
      if (moved) return reply.header('Cache-Control', 'no-cache').redirect(moved, 301);
      return publicPage(reply, await pages.blogPost(id, request.actor !== null), request.actor !== null);
    },
  );
  // The client's own page under /events, not an event (the page asks staff to sign in; the data is the API's).
  app.get('/events/manage', route('public', 'The app’s event management page', APP_PAGE), (_request, reply) => page(reply));
  app.get(
    '/events/:id',
    route('public', 'A public approved event, its content, preview tags and Event JSON-LD in the HTML', PUBLIC_ITEM),
    async (request, reply) => {
      const { id } = request.params as v.InferOutput<typeof IdParams>;
      return publicPage(reply, await pages.event(id, request.actor !== null), request.actor !== null);
    },
  );
  // The pages a mail links to must work with JavaScript off too (a link opened in a locked-down
  // client): the same page, plus a plain form that POSTs the token.
  for (const [path, withForm] of [
    ['/unsubscribe/:token', withNoscriptUnsubscribeForm],
    ['/subscribe/confirm/:token', withNoscriptConfirmForm],
  ] as const)
    app.get(
      path,
      route('public', 'A page a mail links to, with a form that works without JavaScript', { ...APP_PAGE, params: TokenParams }),
      async (request, reply) => {
        const { token } = request.params as v.InferOutput<typeof TokenParams>;
        const html = await readFile(resolve(CLIENT_DIR, 'index.html'), 'utf8');
        return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(withForm(html, token));
      },
    );
  // A password reset link's page: the token is in its address, so no cache keeps it (the page holds none itself).
  app.get(
    '/reset-password/:token',
    route('public', 'The page a password reset mail links to: the app asks for the new password', { ...APP_PAGE, params: TokenParams }),
    (_request, reply) => reply.header('Cache-Control', 'no-store').sendFile('index.html'),
  );
  // Every other page of the app, its built files, and the widgets' page: not part of the API.
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/')) return reply.status(404).send({ message: `No such endpoint: GET ${path}` });
    if (isEmbedPath(path)) return reply.header('Cache-Control', 'no-cache').sendFile('embed.html');
    const file = builtFile(path);
    if (!file) return page(reply);
    const cache = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    return reply.header('Cache-Control', cache).sendFile(file);
  });
}
