/**
 * My bookmarks (docs/domain/bookmarks.md): save and unsave feed posts, events and blog posts (idempotent), and list
 * them newest first with each item as it is now.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { type Actor, fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { pageSchema } from '../../shared/page';
import { bookmarkDecider } from '../../shared/bookmarks/bookmark-stream';
import { BOOKMARK_PAGE_SIZE, BookmarkParams, BookmarkSchema, type Bookmark, type BookmarkKind } from '../../shared/bookmarks/schemas';
import { bookmarksCollection, type BookmarkDocument } from '../../projections/bookmarks/bookmarks';
import { feedPosts } from '../../projections/feed/feed';
import { blogPosts } from '../../projections/blog/blog';
import { eventDetails } from '../../projections/events/events';
import { canSee } from '../events/routes';
import { ErrorSchema, noContent, type ValibotTypeProvider } from '../http/openapi';
import { findPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';

const ListQuery = v.object(pageQuery(BOOKMARK_PAGE_SIZE));
const NEWEST_FIRST = { savedAt: -1, _id: -1 } as const;
const EXCERPT = 160;
const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1).trimEnd()}…` : text);
const NOT_FOUND: Record<BookmarkKind, string> = { post: 'Post not found', event: 'Event not found', blog: 'Blog post not found' };

export async function bookmarkRoutes(fastify: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'now'> }) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const { store } = services;
  const bookmarks = bookmarksCollection(store);
  const tags = ['bookmarks'];

  /** The item as this member may see it now; null when it is gone or hidden from them. */
  async function itemOf(kind: BookmarkKind, id: string, actor: Actor): Promise<Omit<Bookmark['item'], 'removed'> | null> {
    const staff = STAFF.includes(actor.role);
    if (kind === 'post') {
      const post = await feedPosts(store).findOne({ _id: id });
      if (!post || (post.status !== 'approved' && post.authorId !== actor.id && !staff)) return null;
      return { title: `Post by ${post.author.name}`, excerpt: excerpt(post.content), link: `/#post-${id}`, cancelled: false };
    }
    if (kind === 'event') {
      const event = await eventDetails(store).findOne({ _id: id });
      if (!event || !canSee(event, actor)) return null;
      return { title: event.title, excerpt: excerpt(event.description ?? ''), link: `/events/${id}`, cancelled: event.isCancelled ?? false };
    }
    const post = await blogPosts(store).findOne({ _id: id });
    if (!post || (!post.isPublished && !staff)) return null;
    return { title: post.title, excerpt: excerpt(post.excerpt), link: `/blog/${id}`, cancelled: false };
  }
  async function bookmarkDto(bookmark: BookmarkDocument, actor: Actor): Promise<Bookmark> {
    const item = await itemOf(bookmark.kind, bookmark.itemId, actor);
    return {
      kind: bookmark.kind,
      id: bookmark.itemId,
      savedAt: bookmark.savedAt,
      item: item ? { ...item, removed: false } : { title: 'No longer available', excerpt: '', link: '', removed: true, cancelled: false },
    };
  }

  app.get('/api/bookmarks', { config: { access: 'signed-in' }, schema: { summary: 'My bookmarks, newest first, with each item as it is now (a removed one says so)', tags, querystring: ListQuery, response: { 200: pageSchema(BookmarkSchema) } } }, async (request) => {
    const actor = request.actor!;
    const page = await findPage(bookmarks, { memberId: actor.id }, NEWEST_FIRST, request.query);
    return { items: await Promise.all(page.items.map((bookmark) => bookmarkDto(bookmark, actor))), nextCursor: page.nextCursor };
  });

  const change = (type: 'SaveBookmark' | 'RemoveBookmark', actor: Actor, kind: BookmarkKind, id: string) =>
    services.handle(bookmarkDecider, streamName('bookmarks', actor.id), { type, data: { memberId: actor.id, kind, id }, metadata: { now: services.now(), actor } }, { actorId: actor.id });

  app.put('/api/bookmarks/:kind/:id', { config: { access: 'signed-in' }, schema: { summary: 'Save a post, event or blog post (saving twice changes nothing)', tags, params: BookmarkParams, response: { 200: BookmarkSchema, 404: ErrorSchema } } }, async (request) => {
    const actor = request.actor!;
    const kind = request.params.kind;
    const id = request.params.id.toLowerCase();
    if (!(await itemOf(kind, id, actor))) throw fail.notFound(NOT_FOUND[kind]);
    await change('SaveBookmark', actor, kind, id);
    const saved = await bookmarks.findOne({ _id: `${actor.id}:${kind}:${id}` });
    if (!saved) throw fail.notFound(NOT_FOUND[kind]);
    return bookmarkDto(saved, actor);
  });
  app.delete('/api/bookmarks/:kind/:id', { config: { access: 'signed-in' }, schema: { summary: 'Unsave (unsaving what is not saved changes nothing)', tags, params: BookmarkParams, response: { 204: noContent() } } }, async (request, reply) => {
    await change('RemoveBookmark', request.actor!, request.params.kind, request.params.id.toLowerCase());
    return reply.status(204).send();
  });
}
