/**
 * The blog as visitors page through it (/blog, /blog/tag/{tag}, /rss?tag=): published posts, newest first, by keyset
 * (platform/paging.ts) on an index, so a page costs the same however long the blog's history. A tag's posts are found
 * through its entries in `blog_tag_posts`, an index range, then read by id.
 */
import type { DocumentStore, Filter, Sort } from '../../platform/document-store/port';
import { afterCursor, encodeCursor, findPage, type Page, type PageRequest } from '../../platform/paging';
import { blogPosts, blogTagPosts, type BlogPostDocument } from './blog';

/** Readers' pages, newest first: the order of `/blog` and of a tag's page. */
const NEWEST: Sort = { shownAt: -1, _id: -1 };
const OLDEST: Sort = { shownAt: 1, _id: 1 };
/** What a list prints of a post: everything but its content. */
export const LISTED_FIELDS = [
  'title',
  'slug',
  'excerpt',
  'tags',
  'media',
  'isPublished',
  'isPinned',
  'isFeatured',
  'shownAt',
  'publishedAt',
  'createdAt',
  'updatedAt',
  'publishAt',
  'oldSlugs',
  'pinRank',
  'authorId',
  'author',
  'comments',
] as const;
export type ListedPost = Omit<BlogPostDocument, 'content'>;

export interface ReadingRequest {
  limit: number;
  /** The last post of a newer page: the posts after it. */
  after?: string | undefined;
  /** The first post of an older page: the posts before it. */
  before?: string | undefined;
  tag?: string | undefined;
}

export interface ReadingPage {
  items: ListedPost[];
  /** `before` for the newer page; '' when the newer page is the first; null on the first page. */
  newer: string | null;
  /** `after` for the older page; null on the last. */
  older: string | null;
}

const and = (...filters: Filter[]): Filter => {
  const conditions = filters.filter((filter) => Object.keys(filter).length > 0);
  return conditions.length === 1 ? conditions[0]! : { $and: conditions };
};

/** A page's position in the list: its post (or the tag's entry for it), with the keys it sorts by. */
type Key = { _id: string; shownAt: string; postId?: string };

/** Published posts (or a tag's), newest first, a page before or after a cursor. */
export async function readingPage(store: DocumentStore, request: ReadingRequest): Promise<ReadingPage> {
  const { limit, tag } = request;
  const keys = (filter: Filter, order: Sort, count: number): Promise<Key[]> =>
    tag
      ? blogTagPosts(store).find(and({ tag }, filter), { sort: order, limit: count, fields: ['shownAt', 'postId'] })
      : blogPosts(store).find(and({ isPublished: true }, filter), { sort: order, limit: count, fields: ['shownAt'] });
  const backwards = request.before !== undefined;
  const cursor = request.before ?? request.after;
  const order = backwards ? OLDEST : NEWEST;
  const found = await keys(cursor ? afterCursor(cursor, order) : {}, order, limit + 1);
  const window = found.slice(0, limit);
  if (backwards) window.reverse();
  const first = window[0];
  const last = window.at(-1);
  // Paging backwards, what was found says whether newer posts remain; paging on, there are (the pages before).
  const newerExists = first && (backwards ? found.length > limit : request.after !== undefined);
  // The newer page is the first when no more than a page lies before this one: its link is the list's own address.
  const newer = newerExists
    ? (await keys(afterCursor(encodeCursor(first, NEWEST), OLDEST), OLDEST, limit + 1)).length > limit
      ? encodeCursor(first, NEWEST)
      : ''
    : null;
  const olderExists = last && (backwards || found.length > limit);
  const older = olderExists ? encodeCursor(last, NEWEST) : null;
  return {
    items: await readPosts(
      store,
      window.map((key) => key.postId ?? key._id),
    ),
    newer,
    older,
  };
}

/** The posts of these ids, in that order, without their content. */
async function readPosts(store: DocumentStore, ids: string[]): Promise<ListedPost[]> {
  if (ids.length === 0) return [];
  const found = await blogPosts(store).find({ _id: { $in: ids } }, { fields: LISTED_FIELDS });
  const byId = new Map(found.map((post) => [post._id, post]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The newest published posts under a tag, for its feed, without their content. */
export async function newestTagged(store: DocumentStore, tag: string, limit: number): Promise<ListedPost[]> {
  const entries = await blogTagPosts(store).find({ tag }, { sort: NEWEST, limit, fields: ['postId'] });
  return readPosts(
    store,
    entries.map((entry) => entry.postId),
  );
}

/** A page of the published posts under a tag, newest first, whole (the API's list). */
export async function taggedPage(store: DocumentStore, tag: string, request: PageRequest): Promise<Page<BlogPostDocument>> {
  const entries = await findPage(blogTagPosts(store), { tag }, NEWEST, request);
  const found = entries.items.length ? await blogPosts(store).find({ _id: { $in: entries.items.map((entry) => entry.postId) } }) : [];
  const byId = new Map(found.map((post) => [post._id, post]));
  return { items: entries.items.flatMap((entry) => byId.get(entry.postId) ?? []), nextCursor: entries.nextCursor };
}
