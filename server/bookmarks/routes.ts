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
import {
  BOOKMARK_KINDS,
  BOOKMARK_PAGE_SIZE,
  BookmarkParams,
  BookmarkSchema,
  type Bookmark,
  type BookmarkKind,
} from '../../shared/bookmarks/schemas';
import { bookmarksCollection, type BookmarkDocument } from '../../projections/bookmarks';
import { canSeePost, feedPosts } from '../../projections/feed';
import { blogPosts } from '../../projections/blog';
import { canSee, eventDetails } from '../../projections/events';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';

const ListQuery = v.object(pageQuery(BOOKMARK_PAGE_SIZE));
const NEWEST_FIRST = { savedAt: -1, _id: -1 } as const;
const EXCERPT = 160;
const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1).trimEnd()}…` : text);
const NOT_FOUND: Record<BookmarkKind, string> = { post: 'Post not found', event: 'Event not found', blog: 'Blog post not found' };

export async function bookmarkRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const { store } = services;
  const bookmarks = bookmarksCollection(store);
  const route = routeOptions(['bookmarks']);

  type Item = Omit<Bookmark['item'], 'removed'>;
  /** Items of one kind as this member may see them now, by id: an id left out is gone or hidden from them. One read. */
  async function itemsOf(kind: BookmarkKind, ids: string[], actor: Actor): Promise<Map<string, Item>> {
    const staff = STAFF.includes(actor.role);
    const found = new Map<string, Item>();
    const among = { _id: { $in: ids } };
    if (kind === 'post') {
      for (const post of await feedPosts(store).find(among))
        if (canSeePost(post, actor))
          found.set(post._id, {
            title: `Post by ${post.author.name}`,
            excerpt: excerpt(post.content),
            link: `/posts/${post._id}`,
            cancelled: false,
          });
    } else if (kind === 'event') {
      for (const event of await eventDetails(store).find(among))
        if (canSee(event, actor))
          found.set(event._id, {
            title: event.title,
            excerpt: excerpt(event.description ?? ''),
            link: `/events/${event._id}`,
            cancelled: event.isCancelled ?? false,
          });
    } else {
      for (const post of await blogPosts(store).find(among))
        if (post.isPublished || staff)
          found.set(post._id, { title: post.title, excerpt: excerpt(post.excerpt), link: `/blog/${post.slug}`, cancelled: false });
    }
    return found;
  }
  const GONE = { title: 'No longer available', excerpt: '', link: '', removed: true, cancelled: false };
  /** The page's bookmarks with their items: one read per kind, not one per bookmark. */
  async function withItems(saved: BookmarkDocument[], actor: Actor): Promise<Bookmark[]> {
    const items = new Map<string, Item>();
    for (const kind of BOOKMARK_KINDS) {
      const ids = saved.filter((bookmark) => bookmark.kind === kind).map((bookmark) => bookmark.itemId);
      if (ids.length > 0) for (const [id, item] of await itemsOf(kind, ids, actor)) items.set(`${kind}:${id}`, item);
    }
    return saved.map(({ kind, itemId, savedAt }) => {
      const item = items.get(`${kind}:${itemId}`);
      return { kind, id: itemId, savedAt, item: item ? { ...item, removed: false } : GONE };
    });
  }

  app.get(
    '/api/bookmarks',
    route('signed-in', 'My bookmarks, newest first, with each item as it is now (a removed one says so)', {
      querystring: ListQuery,
      response: { 200: pageSchema(BookmarkSchema) },
    }),
    async (request) => {
      const actor = request.actor!;
      const page = await findPage(bookmarks, { memberId: actor.id }, NEWEST_FIRST, request.query);
      return { items: await withItems(page.items, actor), nextCursor: page.nextCursor };
    },
  );

  const change = (type: 'SaveBookmark' | 'RemoveBookmark', actor: Actor, kind: BookmarkKind, id: string) =>
    services.handle(
      bookmarkDecider,
      streamName('bookmarks', actor.id),
      { type, data: { memberId: actor.id, kind, id }, metadata: { now: services.now(), actor } },
      { actorId: actor.id },
    );

  app.put(
    '/api/bookmarks/:kind/:id',
    route('signed-in', 'Save a post, event or blog post (saving twice changes nothing)', {
      params: BookmarkParams,
      response: { 200: BookmarkSchema, 404: ErrorSchema },
    }),
    async (request) => {
      const actor = request.actor!;
      const kind = request.params.kind;
      const id = request.params.id.toLowerCase();
      const item = (await itemsOf(kind, [id], actor)).get(id);
      if (!item) throw fail.notFound(NOT_FOUND[kind]);
      await change('SaveBookmark', actor, kind, id);
      const saved = await bookmarks.findOne({ _id: `${actor.id}:${kind}:${id}` });
      return { kind, id, savedAt: saved?.savedAt ?? services.now().toISOString(), item: { ...item, removed: false } };
    },
  );
  app.delete(
    '/api/bookmarks/:kind/:id',
    route('signed-in', 'Unsave (unsaving what is not saved changes nothing)', { params: BookmarkParams, response: { 204: noContent() } }),
    async (request, reply) => {
      await change('RemoveBookmark', request.actor!, request.params.kind, request.params.id.toLowerCase());
      return reply.status(204).send();
    },
  );
}
