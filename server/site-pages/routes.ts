/**
 * The public site's pages (docs/domain/site-pages.md): anyone reads them; admins edit their Markdown, rendered and
 * sanitised here once, on write.
 */
import type { FastifyInstance } from 'fastify';
import { Marked } from 'marked';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { text } from '../../shared/text-schema';
import { streamName } from '../../shared/streams';
import { sanitizeBlogHtml } from '../../shared/blog/sanitize';
import { DEFAULT_SITE_PAGES } from '../../shared/site-pages/defaults';
import {
  SITE_PAGE_SLUGS,
  SitePagePreviewRequestSchema,
  SitePagePreviewSchema,
  SitePageSchema,
  SitePageSlugSchema,
  SitePageTextSchema,
  SiteSchema,
  SiteSettingsSchema,
  type Site,
  type SitePage,
  type SitePageSlug,
} from '../../shared/site-pages/schemas';
import { sitePageDecider } from '../../shared/site-pages/site-page-stream';
import { siteSettingsDecider } from '../../shared/site-pages/site-settings-stream';
import { SITE_DESCRIPTION, SITE_NAME } from '../../shared/landing';
import { sitePages } from '../../projections/site-pages';
import { ErrorSchema, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { ADMIN } from '../http/access';
import type { ApiDependencies } from '../dependencies';

const markdown = new Marked({ gfm: true, breaks: false, async: false });

/** Markdown as the page shows it: rendered, then kept to the blog's allow-list (no script, no event handler, no javascript: link). */
export function renderSitePage(body: string): string {
  return sanitizeBlogHtml(markdown.parse(body, { async: false }));
}

/** A built-in page's rendering never changes between requests: done once. */
const DEFAULT_HTML = new Map(SITE_PAGE_SLUGS.map((slug) => [slug, renderSitePage(DEFAULT_SITE_PAGES[slug].body)]));

const SlugParams = v.object({ slug: text() });
/** A slug of no page is a page that does not exist, not a malformed request. */
function slugOf({ slug }: { slug: string }): SitePageSlug {
  if (!v.is(SitePageSlugSchema, slug)) throw fail.notFound('No such page');
  return slug;
}

export async function sitePageRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'now' | 'siteTimeZone'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const pages = sitePages(services.store);
  const route = routeOptions(['pages']);

  async function page(slug: SitePageSlug): Promise<SitePage> {
    const edited = await pages.findOne({ _id: slug });
    if (edited) return { slug, title: edited.title, body: edited.body, html: edited.html, updatedAt: edited.updatedAt };
    return { slug, ...DEFAULT_SITE_PAGES[slug], html: DEFAULT_HTML.get(slug)!, updatedAt: null };
  }

  app.get(
    '/api/pages',
    route('public', 'Every page of the public site, as edited or built in', { response: { 200: v.array(SitePageSchema) } }),
    async () => Promise.all(SITE_PAGE_SLUGS.map(page)),
  );

  app.get(
    '/api/pages/:slug',
    route('public', 'One page of the public site', { params: SlugParams, response: { 200: SitePageSchema, 404: ErrorSchema } }),
    async (request) => page(slugOf(request.params)),
  );

  app.put(
    '/api/pages/:slug',
    route(ADMIN, 'Edit a page’s title and Markdown (admins)', {
      params: SlugParams,
      body: SitePageTextSchema,
      response: { 200: SitePageSchema, 404: ErrorSchema },
    }),
    async (request) => {
      const slug = slugOf(request.params);
      const { title, body } = request.body;
      const actor: Actor = request.actor!;
      const intent = { type: 'EditSitePage' as const, data: { slug, title, body, html: renderSitePage(body) } };
      await services.handle(
        sitePageDecider,
        streamName('page', slug),
        { ...intent, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
      return page(slug);
    },
  );

  app.post(
    '/api/pages/preview',
    route(ADMIN, 'Markdown as a page would show it, without saving (admins)', {
      body: SitePagePreviewRequestSchema,
      response: { 200: SitePagePreviewSchema },
    }),
    async (request) => ({ html: renderSitePage(request.body.body) }),
  );

  const site = async (): Promise<Site> => ({ name: SITE_NAME, description: SITE_DESCRIPTION, timeZone: await services.siteTimeZone() });

  app.get(
    '/api/site',
    route('public', 'The site itself: its name, description and the time zone every event time is shown in', {
      response: { 200: SiteSchema },
    }),
    site,
  );

  app.patch(
    '/api/admin/site',
    route(ADMIN, 'Change the site’s settings (admins): its time zone, an IANA name such as America/Chicago', {
      body: SiteSettingsSchema,
      response: { 200: SiteSchema, 400: ErrorSchema },
    }),
    async (request) => {
      const actor: Actor = request.actor!;
      await services.handle(
        siteSettingsDecider,
        streamName('site', 'settings'),
        { type: 'SetSiteTimeZone', data: { timeZone: request.body.timeZone }, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
      return site();
    },
  );
}
