/** The feed's queries: who sees a post, the API's Post, the feed's pages, the trending tags and the post counts. */
import type { Post } from '../../shared/feed/schemas';
import type { Actor } from '../../shared/domain';
import { TRENDING_LIKES } from '../../shared/feed/constants';
import { normalizeTag } from '../../shared/feed/tags';
import { topTrendingTags, TRENDING_TAGS_SHOWN, trendingWindowStart } from '../../shared/feed/trending';
import type { DocumentStore, Filter, Sort } from '../../platform/document-store/port';
import { afterCursor, pageOf, type Page } from '../../platform/paging';
import { canSeePost, isModerator } from '../../shared/feed/post-stream';
import { authors, feedPosts, IN_REVIEW, revisions, tagCounts, type FeedPostDocument } from './feed';
import { bylineName } from '../../shared/members/byline';
import type { PostRevision } from '../../shared/feed/schemas';

/** Keeps answers shared by every reader (the API's read cache, server/http/read-cache.ts); by default, none is kept. */
export type AnswerCache = <T>(key: string, load: () => Promise<T>) => Promise<T>;
const uncached: AnswerCache = (_key, load) => load();

/** Tag counts read at once: when every count is current, the trending tags and the one after them. */
const TAG_COUNT_PAGE = TRENDING_TAGS_SHOWN * 2;

export { canSeePost };

/** The API's Post: one source for the feed's names and the embed's (likesCount, commentsCount). */
export function postDto(post: FeedPostDocument, viewer: Actor | null): Post {
  return {
    id: post._id,
    author: post.author,
    content: post.content,
    mediaType: post.mediaType,
    mediaUrl: post.mediaUrl,
    mediaTitle: post.mediaTitle,
    ...(post.media ? { media: post.media } : {}),
    tags: post.tags,
    likes: post.likes,
    likesCount: post.likes,
    likedByMe: viewer ? post.likedBy.includes(viewer.id) : false,
    comments: post.comments,
    commentsCount: post.comments,
    shares: post.shares,
    isApproved: post.status === 'approved',
    isPinned: post.pinRank === 1,
    status: post.status,
    ...(canSeeHistory(post, viewer)
      ? {
          rejectionReason: post.rejectionReason,
          reports: post.reports,
          pendingRevision: Boolean(post.revision),
          ...(post.revision ? { revision: post.revision } : {}),
        }
      : {}),
    createdAt: post.createdAt,
    editedAt: post.editedAt ?? null,
  };
}

/** Who sees what waits and what was: a post's held edit, its rejection reason, its history. Its author and staff. */
export const canSeeHistory = (post: Pick<FeedPostDocument, 'authorId'>, viewer: Actor | null) =>
  viewer !== null && (viewer.id === post.authorId || isModerator(viewer.role));

/** The moderation queue's order: as posts and held edits entered it, oldest first. */
export const QUEUE_ORDER: Sort = { reviewAt: 1, _id: 1 };
export { IN_REVIEW };

/** A post's texts, newest first, with who wrote each as they are named now. */
export async function revisionPage(
  store: DocumentStore,
  postId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<Page<PostRevision>> {
  const order: Sort = { createdAt: -1, _id: -1 };
  const found = await revisions(store).find(
    { $and: [{ postId }, ...(page.cursor ? [afterCursor(page.cursor, order)] : [])] },
    { sort: order, limit: page.limit + 1 },
  );
  const { items, nextCursor } = pageOf(found, { limit: page.limit }, order);
  const editors = await authors(store).find({ _id: { $in: [...new Set(items.map((item) => item.editedBy))] } });
  const names = new Map(editors.map((editor) => [editor._id, bylineName(editor.byline)]));
  return {
    items: items.map(({ _id, content, mediaType, mediaUrl, mediaTitle, tags, createdAt, editedBy, status, current }) => ({
      id: _id,
      content,
      mediaType,
      mediaUrl,
      mediaTitle,
      tags,
      createdAt,
      editedBy: { id: editedBy, name: names.get(editedBy) ?? bylineName(null) },
      status,
      current,
    })),
    nextCursor,
  };
}

/** The trending tags now (see shared/feed/trending.ts), reading the tag counts a page at a time and only as far as needed. */
export async function trendingTags(store: DocumentStore, now: Date) {
  async function* byCount() {
    for (let skip = 0; ; skip += TAG_COUNT_PAGE) {
      const page = await tagCounts(store).find({}, { sort: { count: -1, _id: 1 }, skip, limit: TAG_COUNT_PAGE });
      for (const { _id, days, count } of page) yield { tag: _id, days, count };
      if (page.length < TAG_COUNT_PAGE) return;
    }
  }
  return topTrendingTags(byCount(), trendingWindowStart(now.toISOString().slice(0, 10)));
}

export interface FeedQuery {
  filter: 'all' | 'trending' | 'following';
  q?: string | undefined;
  tag?: string | undefined;
  cursor?: string | undefined;
}

/** Pinned first, then newest; the id breaks ties so the cursor is exact. */
const FEED_ORDER: Sort = { pinRank: -1, createdAt: -1, _id: -1 };

/** Narrows by filter, search, tag and cursor (what every part of a feed page shares). */
function narrowing(query: FeedQuery): Filter[] {
  const conditions: Filter[] = [];
  if (query.filter === 'trending') conditions.push({ likes: { $gt: TRENDING_LIKES } });
  if (query.filter === 'following') conditions.push({ 'author.role': { $in: ['admin', 'staff'] } });
  // Every word of the search, in the content, the author's name or the tags (a '#' before a tag is no word).
  if (query.q) conditions.push({ $text: { $search: query.q } });
  if (query.tag) conditions.push({ tags: normalizeTag(query.tag) });
  if (query.cursor) conditions.push(afterCursor(query.cursor, FEED_ORDER));
  return conditions;
}

const inFeedOrder = (a: FeedPostDocument, b: FeedPostDocument) =>
  b.pinRank - a.pinRank || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a._id < b._id ? 1 : -1);

/**
 * One page of the feed as a reader may see it: approved posts, plus the reader's
 * own pending ones. Asked as two queries at once, each served by an index in feed
 * order (status, or author and status), rather than one `$or` that no index serves.
 * Both are kept in `cached` (server/http/read-cache.ts) until the next event: the
 * approved posts for every reader, a reader's own pending ones for that reader.
 * (Finding first who has posts waiting read every pending post: 70 ms at 5,000.)
 */
export async function feedPage(
  store: DocumentStore,
  query: FeedQuery,
  viewer: Actor | null,
  limit: number,
  cached: AnswerCache = uncached,
): Promise<Page<FeedPostDocument>> {
  const posts = feedPosts(store);
  const rest = narrowing(query);
  const key = JSON.stringify([query.filter, query.q, query.tag, query.cursor, limit]);
  const [approved, own] = await Promise.all([
    cached(`feed:${key}`, () => posts.find({ $and: [{ status: 'approved' }, ...rest] }, { sort: FEED_ORDER, limit: limit + 1 })),
    viewer
      ? cached(`feed:own:${viewer.id}:${key}`, () =>
          posts.find({ $and: [{ status: 'pending', authorId: viewer.id }, ...rest] }, { sort: FEED_ORDER, limit: limit + 1 }),
        )
      : [],
  ]);
  return pageOf([...approved, ...own].sort(inFeedOrder), { limit }, FEED_ORDER);
}

/**
 * The community's post count wherever one is shown (sidebar, admin dashboard, monitoring): the posts in the
 * feed, approved ones; a pending or rejected post is not counted until, unless, it is published.
 */
export const publishedPostCount = (store: DocumentStore) => feedPosts(store).countDocuments({ status: 'approved' });
