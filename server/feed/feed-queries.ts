import type { Actor } from '../../shared/domain';
import type { Collection } from '../infrastructure/document-store/port';
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
