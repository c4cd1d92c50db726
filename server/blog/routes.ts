/** The blog (docs/domain/blog.md): staff write; everyone reads published posts; RSS at /rss. */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { blogPostDecider, type BlogPostCommand } from '../../shared/blog/blog-stream';
import {
  BlogPostSchema,
  BlogScheduleZoneSchema,
  BlogPreviewRequestSchema,
  BlogPreviewSchema,
  BlogRevisionSchema,
  BlogRevisionSummarySchema,
  CreateBlogPostSchema,
  UpdateBlogPostSchema,
  type BlogPost,
} from '../../shared/blog/schemas';
import { pageSchema } from '../../shared/page';
import { sanitizeBlogHtml } from '../../shared/blog/sanitize';
import { generateExcerpt } from '../../shared/blog/excerpt';
import { text } from '../../shared/text-schema';
import {
  blogPostDto,
  blogPosts,
  findBlogPost,
  findBlogRevision,
  listBlogRevisions,
  newestTagged,
  taggedPage,
} from '../../projections/blog';
import { normalizeTag } from '../../shared/feed/tags';
import { slugify } from '../../shared/blog/slug';
import { claimSlug } from './slugs';
import type { Sort } from '../../platform/document-store/port';
import { ErrorSchema, noContent, redirect, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { Intent } from '../../platform/command-handler';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { RSS_FIELDS, rssFeed, type RssPost } from './rss';
import { knownId } from '../http/ids';
import { createReadCache } from '../http/read-cache';
import { attachedMedia } from '../media/attachments';

const IdParams = v.object({ id: text() });
/** A post's id or one of its slugs (the path keeps the name `id` that the post's other calls use). */
const AddressParams = v.object({ id: v.pipe(text(), v.description('The post’s id or slug')) });
const postId = ({ id }: { id: string }) => knownId(id, 'Blog post not found');
const RevisionParams = v.object({ id: text(), rev: text() });
/** A tag as posts carry it (normalised as they are). */
const TagFilter = v.optional(
  v.pipe(text(), v.maxLength(200, 'tag is too long'), v.transform(normalizeTag), v.description('Only posts with this tag')),
);
const ListQuery = v.object({
  ...pageQuery(50),
  featured: v.optional(v.picklist(['true', 'false'])),
  pinned: v.optional(v.picklist(['true', 'false'])),
  /** Newest first, whatever is pinned. */
  tag: TagFilter,
});
const RssQuery = v.object({ tag: TagFilter });
const ManagementQuery = v.object({
  ...pageQuery(50),
  /** scheduled: waiting for their publishAt; draft: neither published nor scheduled; published. */
  status: v.optional(v.picklist(['draft', 'scheduled', 'published'], 'status must be draft, scheduled or published')),
});
const STATUS_FILTERS = {
  draft: { isPublished: false, publishAt: null },
  scheduled: { isPublished: false, publishAt: { $ne: null } },
  published: { isPublished: true },
} as const;
/** Scheduled posts in the order they will appear. */
const SCHEDULE_ORDER: Sort = { publishAt: 1, _id: 1 };
/** Readers' order: pinned first, then newest shown. */
const READING_ORDER: Sort = { pinRank: -1, shownAt: -1, _id: -1 };
/** Management's order: newest written first, drafts among them. */
const WRITING_ORDER: Sort = { createdAt: -1, _id: -1 };
const TOGGLES = {
  publish: 'PublishBlogPost',
  unpublish: 'UnpublishBlogPost',
  pin: 'PinBlogPost',
  unpin: 'UnpinBlogPost',
  feature: 'FeatureBlogPost',
  unfeature: 'UnfeatureBlogPost',
} as const;

/** Sanitised once, on write; an excerpt left empty is generated from the text. */
function prepare(text: { title: string; excerpt: string; content: string }) {
  const content = sanitizeBlogHtml(text.content);
  if (!content.trim()) throw fail.invalid('Content is required', { content: 'Content is required' });
  return { ...text, content, excerpt: text.excerpt.trim() || generateExcerpt(content) };
}

export async function blogRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'eventStore' | 'handle' | 'config' | 'now' | 'progress' | 'siteTimeZone'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const posts = blogPosts(services.store);
  /** What every reader is answered alike (the list, a post, RSS), kept until the next event (server/http/read-cache.ts). */
  const cached = createReadCache(services.progress);
  const route = routeOptions(['blog']);
  /** What the blog post decider may refuse: no such post, already done, against a rule. */
  const refusals = { 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema };

  const decide = (id: string, actor: Actor | null, intent: Intent<BlogPostCommand>) =>
    services.handle(
      blogPostDecider,
      streamName('blog', id),
      { ...intent, metadata: { now: services.now(), actor } },
      actor ? { actorId: actor.id } : {},
    );
  /** Decides `intent` on the post's stream; answers the post as it now is (read-your-writes). */
  async function command(id: string, actor: Actor | null, intent: Intent<BlogPostCommand>): Promise<BlogPost> {
    await decide(id, actor, intent);
    const post = await posts.findOne({ _id: id });
    if (!post) throw fail.notFound('Blog post not found');
    return blogPostDto(post);
  }

  app.get(
    '/api/blog',
    route('public', 'Published posts, pinned first, then newest', {
      querystring: ListQuery,
      response: { 200: pageSchema(BlogPostSchema) },
    }),
    async (request) => {
      const { tag, ...query } = request.query;
      if (tag !== undefined) {
        const { limit, cursor } = query;
        return cached(`tagged:${JSON.stringify([tag, limit, cursor ?? null])}`, async () =>
          mapPage(await taggedPage(services.store, tag, { limit, cursor }), blogPostDto),
        );
      }
      const filter: Record<string, unknown> = { isPublished: true };
      if (query.featured) filter.isFeatured = query.featured === 'true';
      if (query.pinned) filter.isPinned = query.pinned === 'true';
      return cached(`list:${JSON.stringify(filter)}:${JSON.stringify(query)}`, async () =>
        mapPage(await findPage(posts, filter, READING_ORDER, query), blogPostDto),
      );
    },
  );

  app.get(
    '/api/blog/:id',
    route('public', 'One post by its id or slug; a draft only for staff', {
      description: 'An earlier slug of the post answers 301 to `/api/blog/{slug}`.',
      params: AddressParams,
      response: { 200: BlogPostSchema, 301: redirect('An earlier slug: to the post at its current slug'), 404: ErrorSchema },
    }),
    async (request, reply) => {
      const address = request.params.id;
      const found = await cached(`post:${address.toLowerCase()}`, () => findBlogPost(services.store, address));
      const staff = request.actor !== null && STAFF.includes(request.actor.role);
      if (!found || (!found.post.isPublished && !staff)) throw fail.notFound('Blog post not found');
      if (found.moved && found.post._id !== address.toLowerCase())
        return reply.redirect(`/api/blog/${encodeURIComponent(found.post.slug)}`, 301);
      return blogPostDto(found.post);
    },
  );

  app.get(
    '/api/admin/blog',
    route(STAFF, 'Every post, drafts too, newest written first; scheduled ones soonest first', {
      querystring: ManagementQuery,
      response: { 200: pageSchema(BlogPostSchema) },
    }),
    async (request) => {
      const { status, ...query } = request.query;
      const filter = status ? STATUS_FILTERS[status] : {};
      return mapPage(await findPage(posts, filter, status === 'scheduled' ? SCHEDULE_ORDER : WRITING_ORDER, query), blogPostDto);
    },
  );

  app.get(
    '/api/admin/blog/:id/revisions',
    route(STAFF, 'A post’s revisions, one per save, newest first (the 100 newest)', {
      params: IdParams,
      response: { 200: v.array(BlogRevisionSummarySchema), 404: ErrorSchema },
    }),
    async (request) => {
      const id = postId(request.params);
      if (!(await posts.findOne({ _id: id }))) throw fail.notFound('Blog post not found');
      return listBlogRevisions(services.store, id);
    },
  );

  app.get(
    '/api/admin/blog/:id/revisions/:rev',
    route(STAFF, 'One revision of a post: its title, excerpt, content and tags as saved', {
      params: RevisionParams,
      response: { 200: BlogRevisionSchema, 404: ErrorSchema },
    }),
    async (request) => {
      const revision = await findBlogRevision(services.store, postId(request.params), request.params.rev);
      if (!revision) throw fail.notFound('Revision not found');
      return revision;
    },
  );

  app.post(
    '/api/admin/blog/:id/revisions/:rev/restore',
    route(STAFF, 'Restore a revision’s title, excerpt, content and tags as a new save', {
      description: 'The post keeps its address, cover, schedule and publication: a published post stays published and is not mailed again.',
      params: RevisionParams,
      response: { 200: BlogPostSchema, ...refusals },
    }),
    async (request) => {
      const id = postId(request.params);
      const revision = await findBlogRevision(services.store, id, request.params.rev);
      if (!revision) throw fail.notFound('Revision not found');
      const { title, excerpt, content, tags: restored } = revision;
      return command(id, request.actor, { type: 'EditBlogPost', data: { ...prepare({ title, excerpt, content }), tags: restored } });
    },
  );

  app.get(
    '/api/admin/blog/time-zone',
    route(STAFF, 'The time zone the editor schedules posts in: the site’s', { response: { 200: BlogScheduleZoneSchema } }),
    async () => ({ timeZone: await services.siteTimeZone() }),
  );

  app.post(
    '/api/blog',
    route(STAFF, 'Write a post (sanitised; an empty excerpt is generated)', {
      body: CreateBlogPostSchema,
      response: { 201: BlogPostSchema, ...refusals },
    }),
    async (request, reply) => {
      const { mediaId, ...body } = request.body;
      const { publishAt, slug: wanted, ...rest } = body;
      const id = randomUUID();
      const media = await attachedMedia(services, mediaId, request.actor!, 'blog');
      const slug = await claimSlug(services, wanted ?? slugify(body.title), id);
      const data = { ...rest, ...prepare(body), id, slug, ...(media ? { media } : {}), ...(publishAt !== undefined ? { publishAt } : {}) };
      const post = await command(id, request.actor, { type: 'CreateBlogPost', data });
      return reply.status(201).send(post);
    },
  );

  app.patch(
    '/api/blog/:id',
    route(STAFF, 'Edit a post’s title, slug, excerpt, content, tags and schedule', {
      params: IdParams,
      body: UpdateBlogPostSchema,
      response: { 200: BlogPostSchema, ...refusals },
    }),
    async (request) => {
      const { mediaId, slug: wanted, publishAt, ...body } = request.body;
      const id = postId(request.params);
      // Absent leaves the upload as it is; null takes it away.
      const media =
        mediaId === undefined ? undefined : mediaId === null ? null : await attachedMedia(services, mediaId, request.actor!, 'blog');
      // A post of someone else is not looked up here: the decider answers 404 for a post that does not exist.
      const slug = wanted === undefined || !(await posts.findOne({ _id: id })) ? undefined : await claimSlug(services, wanted, id);
      const data = {
        ...body,
        ...prepare(body),
        ...(media !== undefined ? { media } : {}),
        ...(slug !== undefined ? { slug } : {}),
        ...(publishAt !== undefined ? { publishAt } : {}),
      };
      return command(id, request.actor, { type: 'EditBlogPost', data });
    },
  );

  /** The sanitised HTML and the excerpt a save would store, for the editor's live preview; nothing is written. */
  app.post(
    '/api/blog/preview',
    route(STAFF, 'Preview a draft as a save would store it; nothing is written', {
      body: BlogPreviewRequestSchema,
      response: { 200: BlogPreviewSchema },
    }),
    async (request) => {
      const draft = request.body;
      const content = sanitizeBlogHtml(draft.content);
      return { content, excerpt: draft.excerpt || generateExcerpt(content), excerptGenerated: !draft.excerpt };
    },
  );

  for (const [action, type] of Object.entries(TOGGLES))
    app.post(
      `/api/blog/:id/${action}`,
      route(STAFF, `${action[0]!.toUpperCase()}${action.slice(1)} a post`, {
        params: IdParams,
        response: { 200: BlogPostSchema, ...refusals },
      }),
      async (request) => command(postId(request.params), request.actor, { type, data: {} }),
    );

  app.delete(
    '/api/blog/:id',
    route(STAFF, 'Delete a post', { params: IdParams, response: { 204: noContent(), ...refusals } }),
    async (request, reply) => {
      await decide(postId(request.params), request.actor, { type: 'DeleteBlogPost', data: {} });
      return reply.status(204).send();
    },
  );

  app.get(
    '/rss',
    route('public', 'RSS 2.0 of the 50 newest published posts, or of those with a tag', {
      querystring: RssQuery,
      response: {
        200: { description: 'The RSS feed', contentType: 'application/rss+xml' },
        304: noContent('The feed has not changed since the version whose ETag was sent in If-None-Match'),
      },
    }),
    async (request, reply) => {
      const { tag } = request.query;
      const { xml, etag } = await cached(`rss:${tag ?? ''}`, async () => {
        const published: RssPost[] =
          tag === undefined
            ? await posts.find({ isPublished: true }, { sort: { shownAt: -1, _id: -1 }, limit: 50, fields: RSS_FIELDS })
            : await newestTagged(services.store, tag, 50);
        const feed = rssFeed(published, services.config.publicUrl, tag);
        return { xml: feed, etag: `"${createHash('sha256').update(feed).digest('base64url').slice(0, 27)}"` };
      });
      // Feed readers poll: one that holds this version is answered 304 without the body.
      reply.header('ETag', etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
      if (request.headers['if-none-match']?.split(/\s*,\s*/u).some((tag) => tag.replace(/^W\//u, '') === etag))
        return reply.status(304).send();
      return reply.type('application/rss+xml; charset=utf-8').send(xml);
    },
  );
}
