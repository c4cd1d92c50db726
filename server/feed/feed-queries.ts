import type { Actor } from '../../shared/domain';
import { TRENDING_LIKES } from '../../shared/feed/constants';
import { normalizeTag } from '../../shared/feed/tags';
import type { Collection, Filter, Sort } from '../infrastructure/document-store/port';
import { afterCursor, pageOf, type Page } from '../http/pagination';
import type { FeedPostDocument } from '../../projections/feed/feed';

/** Trending tags are counted over the posts of this many recent days. */
export const TRENDING_WINDOW_DAYS = 30;
const TRENDING_TAGS_SHOWN = 5;

/** The API's Post: one source for the feed's names and the embed's (likesCount, commentsCount). */
export function postDto(post: FeedPostDocument, viewer: Actor | null) {
  return {
    id: post._id,
    author: post.author,
    content: post.content,
    mediaType: post.mediaType,
    mediaUrl: post.mediaUrl,
    mediaTitle: post.mediaTitle,
    tags: post.tags,
    likes: post.likes,
    likesCount: post.likes,
    likedByMe: viewer ? post.likedBy.includes(viewer.id) : false,
    comments: 0,
    commentsCount: 0,
    shares: post.shares,
    isApproved: post.status === 'approved',
    isPinned: post.pinRank === 1,
    status: post.status,
    ...(viewer && (viewer.id === post.authorId || viewer.role === 'admin' || viewer.role === 'staff') ? { rejectionReason: post.rejectionReason, reports: post.reports } : {}),
    createdAt: post.createdAt,
  };
}

export async function trendingTags(days: Collection<{ _id: string; tag: string; day: string; count: number }>, now: Date) {
  const since = new Date(now.getTime() - TRENDING_WINDOW_DAYS * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const totals = new Map<string, number>();
  for (const row of await days.find({ day: { $gte: since } })) totals.set(row.tag, (totals.get(row.tag) ?? 0) + row.count);
  return [...totals]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
    .slice(0, TRENDING_TAGS_SHOWN);
}

export interface FeedQuery {
  filter: 'all' | 'trending' | 'following';
  q?: string | undefined;
  tag?: string | undefined;
  cursor?: string | undefined;
}

/** Pinned first, then newest; the id breaks ties so the cursor is exact. */
export const FEED_ORDER: Sort = { pinRank: -1, createdAt: -1, _id: -1 };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Narrows by filter, search, tag and cursor (what every part of a feed page shares). */
function narrowing(query: FeedQuery): Filter[] {
  const conditions: Filter[] = [];
  if (query.filter === 'trending') conditions.push({ likes: { $gt: TRENDING_LIKES } });
  if (query.filter === 'following') conditions.push({ 'author.role': { $in: ['admin', 'staff'] } });
  if (query.q) conditions.push({ search: { $regex: escapeRegex(query.q.replace(/^#/, '').toLowerCase()) } });
  if (query.tag) conditions.push({ tags: normalizeTag(query.tag) });
  if (query.cursor) conditions.push(afterCursor(query.cursor, FEED_ORDER));
  return conditions;
}

const inFeedOrder = (a: FeedPostDocument, b: FeedPostDocument) =>
  b.pinRank - a.pinRank || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a._id < b._id ? 1 : -1);

/**
 * One page of the feed as a reader may see it: approved posts, plus the reader's
 * own pending ones. Asked as two queries, each served by the status index in feed
 * order, rather than one `$or` that no index serves.
 */
export async function feedPage(posts: Collection<FeedPostDocument>, query: FeedQuery, viewer: Actor | null, limit: number): Promise<Page<FeedPostDocument>> {
  const rest = narrowing(query);
  const [approved, own] = await Promise.all([
    posts.find({ $and: [{ status: 'approved' }, ...rest] }, { sort: FEED_ORDER, limit: limit + 1 }),
    viewer ? posts.find({ $and: [{ status: 'pending', authorId: viewer.id }, ...rest] }, { sort: FEED_ORDER, limit: limit + 1 }) : [],
  ]);
  return pageOf([...approved, ...own].sort(inFeedOrder), { limit }, FEED_ORDER);
}
