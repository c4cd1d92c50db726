/** The blog (docs/domain/blog.md): staff write; everyone reads published posts; RSS at /rss. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { blogPostDecider, type BlogPostCommand } from '../../shared/blog/blog-stream';
import { CONTENT_MAX_LENGTH, CreateBlogPostSchema, EXCERPT_MAX_LENGTH, UpdateBlogPostSchema } from '../../shared/blog/schemas';
import { sanitizeBlogHtml } from '../../shared/blog/sanitize';
import { generateExcerpt } from '../../shared/blog/excerpt';
import { text } from '../../shared/text-schema';
import { blogPosts, type BlogPostDocument } from '../../projections/blog/blog';
import type { Sort } from '../../platform/document-store/port';
import { parse } from '../http/errors';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { rssFeed } from './rss';

const IdParams = v.object({ id: text() });
const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu;
/** Every post id is a UUID, so anything else is a post that does not exist, not a malformed request. */
function postId(params: unknown): string {
  const { id } = parse(IdParams, params);
  if (!UUID.test(id)) throw fail.notFound('Blog post not found');
  return id.toLowerCase();
}
/** What the editor's live preview sends: the draft as typed, before any rule about it being complete. */
const PreviewSchema = v.object({
  content: v.optional(v.pipe(text(), v.maxLength(CONTENT_MAX_LENGTH, 'Content is too long')), ''),
  excerpt: v.nullish(v.pipe(text(), v.trim(), v.maxLength(EXCERPT_MAX_LENGTH, `Excerpt must be at most ${EXCERPT_MAX_LENGTH} characters`)), ''),
});
const ListQuery = v.object({
  ...pageQuery(50),
  featured: v.optional(v.picklist(['true', 'false'])),
  pinned: v.optional(v.picklist(['true', 'false'])),
});
const ManagementQuery = v.object(pageQuery(50));
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

export function blogPostDto(post: BlogPostDocument) {
  return {
    id: post._id,
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    tags: post.tags,
    isPublished: post.isPublished,
    isPinned: post.isPinned,
    isFeatured: post.isFeatured,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    publishedAt: post.publishedAt,
    author: post.author,
  };
}

/** Sanitised once, on write; an excerpt left empty is generated from the text. */
function prepare(text: { title: string; excerpt: string; content: string }) {
  const content = sanitizeBlogHtml(text.content);
  if (!content.trim()) throw fail.invalid('Content is required', { content: 'Content is required' });
  return { ...text, content, excerpt: text.excerpt.trim() || generateExcerpt(content) };
}

export async function blogRoutes(app: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> }) {
  const posts = blogPosts(services.store);

  async function command(id: string, actor: Actor | null, type: BlogPostCommand['type'], data: Record<string, unknown> = {}) {
    await services.handle(blogPostDecider, streamName('blog', id), { type, data, metadata: { now: services.now(), actor } } as BlogPostCommand, actor ? { actorId: actor.id } : {});
    const post = await posts.findOne({ _id: id });
    if (!post) throw fail.notFound('Blog post not found');
    return blogPostDto(post);
  }

  app.get('/api/blog', { config: { access: 'public' } }, async (request) => {
    const query = parse(ListQuery, request.query);
    const filter: Record<string, unknown> = { isPublished: true };
    if (query.featured) filter.isFeatured = query.featured === 'true';
    if (query.pinned) filter.isPinned = query.pinned === 'true';
    return mapPage(await findPage(posts, filter, READING_ORDER, query), blogPostDto);
  });

  app.get('/api/blog/:id', { config: { access: 'public' } }, async (request) => {
    const id = postId(request.params);
    const post = await posts.findOne({ _id: id });
    const staff = request.actor !== null && STAFF.includes(request.actor.role);
    if (!post || (!post.isPublished && !staff)) throw fail.notFound('Blog post not found');
    return blogPostDto(post);
  });

  app.get('/api/admin/blog', { config: { access: STAFF } }, async (request) => mapPage(await findPage(posts, {}, WRITING_ORDER, parse(ManagementQuery, request.query)), blogPostDto));

  app.post('/api/blog', { config: { access: STAFF } }, async (request, reply) => {
    const body = parse(CreateBlogPostSchema, request.body);
    const id = randomUUID();
    const post = await command(id, request.actor, 'CreateBlogPost', { ...body, ...prepare(body), id, tags: body.tags ?? [] });
    return reply.status(201).send(post);
  });

  app.patch('/api/blog/:id', { config: { access: STAFF } }, async (request) => {
    const id = postId(request.params);
    const body = parse(UpdateBlogPostSchema, request.body);
    return command(id, request.actor, 'EditBlogPost', { ...body, ...prepare(body) });
  });

  /** The sanitised HTML and the excerpt a save would store, for the editor's live preview; nothing is written. */
  app.post('/api/blog/preview', { config: { access: STAFF } }, async (request) => {
    const draft = parse(PreviewSchema, request.body);
    const content = sanitizeBlogHtml(draft.content);
    return { content, excerpt: draft.excerpt || generateExcerpt(content), excerptGenerated: !draft.excerpt };
  });

  for (const [action, type] of Object.entries(TOGGLES))
    app.post(`/api/blog/:id/${action}`, { config: { access: STAFF } }, async (request) => command(postId(request.params), request.actor, type));

  app.delete('/api/blog/:id', { config: { access: STAFF } }, async (request, reply) => {
    const id = postId(request.params);
    await services.handle(blogPostDecider, streamName('blog', id), { type: 'DeleteBlogPost', data: {}, metadata: { now: services.now(), actor: request.actor } }, { actorId: request.actor!.id });
    return reply.status(204).send();
  });

  app.get('/rss', { config: { access: 'public' } }, async (_request, reply) => {
    const published = await posts.find({ isPublished: true }, { sort: { shownAt: -1, _id: -1 }, limit: 50 });
    return reply.type('application/rss+xml; charset=utf-8').send(rssFeed(published, services.config.publicUrl));
  });
}
