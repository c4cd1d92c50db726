/**
 * The newsfeed's read models: `feed_posts` (one document per post, serving the
 * feed, the moderation queue and the post counts of the dashboard),
 * `feed_tag_days` (posts per tag per day) and `feed_tag_counts` (posts per tag
 * over the trending window, see shared/feed/trending.ts). Change notices go to
 * the rooms that may see the post.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import type { MediaType } from '../../shared/feed/constants';
import type { Media } from '../../shared/media/schemas';
import { trendingWindowStart } from '../../shared/feed/trending';
import { displayName } from '../../shared/members/display';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import { membersCollection } from '../members/members';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import type { CommentEvent } from '../../shared/comments/comment-stream';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS, type Room } from '../../shared/socket-messages';

export const FEED_POSTS = 'feed_posts';
export const FEED_TAG_DAYS = 'feed_tag_days';
export const FEED_TAG_COUNTS = 'feed_tag_counts';

export type PostStatus = 'pending' | 'approved' | 'rejected';

export type FeedPostDocument = Positioned & {
  _id: string;
  authorId: string;
  author: { id: string; name: string; avatar: string | null; role: Role };
  content: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  mediaTitle: string | null;
  /** An uploaded file shown with the post (absent when none). */
  media?: Media;
  tags: string[];
  status: PostStatus;
  rejectionReason: string | null;
  /** 1 when pinned, so the feed sorts pinned posts first with a plain numeric sort. */
  pinRank: 0 | 1;
  likedBy: string[];
  likes: number;
  /** Comments in its thread that are not removed. */
  comments: number;
  shares: number;
  reportedBy: string[];
  reports: number;
  createdAt: string;
  /** Lowercased content, author name and tags: what the feed's search matches. */
  search: string;
  /** Members it mentions (absent when none): told once it is in the feed. */
  mentions?: string[];
};

type TagDay = Positioned & { _id: string; tag: string; day: string; count: number };
/** Keyed by tag: its posts per day over the trending window ending on the newest post's day, and their sum. */
export type TagCountDocument = Positioned & { _id: string; days: Record<string, number>; count: number };

export const feedPosts = (store: DocumentStore) => store.collection<FeedPostDocument>(FEED_POSTS);
export const tagDays = (store: DocumentStore) => store.collection<TagDay>(FEED_TAG_DAYS);
export const tagCounts = (store: DocumentStore) => store.collection<TagCountDocument>(FEED_TAG_COUNTS);

/**
 * The community's post count wherever one is shown (sidebar, admin dashboard, monitoring): the posts in the
 * feed, approved ones; a pending or rejected post is not counted until, unless, it is published.
 */
export const publishedPostCount = (store: DocumentStore) => feedPosts(store).countDocuments({ status: 'approved' });

function visibleTo(post: FeedPostDocument): Room[] {
  return post.status === 'approved' ? [ROOMS.members, ROOMS.public] : [ROOMS.staff, ROOMS.member(post.authorId)];
}

/**
 * Adds a post's tags to `feed_tag_counts`. When the post moves the newest day forward, the tags of the days leaving
 * the window are recounted too, so every count covers the window ending on the newest day and nothing older. Runs
 * before the post's tag-day rows are written: a replay of a half-applied post then finds the same newest day.
 */
async function countTags(store: DocumentStore, tags: readonly string[], day: string, at: number) {
  const [newest] = await tagDays(store).find({}, { sort: { day: -1 }, limit: 1 });
  const end = newest && newest.day > day ? newest.day : day;
  const start = trendingWindowStart(end);
  const leaving = newest && end > newest.day ? await tagDays(store).find({ day: { $gte: trendingWindowStart(newest.day), $lt: start } }) : [];
  // A post dated before the window (the demo seed writes the past) keeps its tag-day rows but counts nowhere.
  const counted = day >= start ? tags : [];
  for (const tag of new Set([...counted, ...leaving.map((row) => row.tag)]))
    await applyToDocument(tagCounts(store), tag, at, (current) => {
      const days = Object.fromEntries(Object.entries(current?.days ?? {}).filter(([kept]) => kept >= start));
      if (counted.includes(tag)) days[day] = (days[day] ?? 0) + 1;
      const count = Object.values(days).reduce((sum, posts) => sum + posts, 0);
      return count > 0 ? { days, count } : null;
    });
}

/** A post's comment count follows its thread: one more for each comment written, one less for each removed. */
async function countComments(store: DocumentStore, event: CommentEvent, at: number, notify: ProjectionContext['notify']) {
  if (event.data.targetType !== 'post' || (event.type !== 'CommentWritten' && event.type !== 'CommentRemoved')) return;
  const id = event.data.targetId;
  const step = event.type === 'CommentWritten' ? 1 : -1;
  await applyToDocument(feedPosts(store), id, at, (post) => post && { ...post, comments: post.comments + step });
  const post = await feedPosts(store).findOne({ _id: id });
  if (post) notify({ message: 'posts:changed', rooms: visibleTo(post), payload: { id, kind: 'updated' } });
}

export const feedProjection: Projection = {
  name: 'feed',
  version: 1,
  collections: [FEED_POSTS, FEED_TAG_DAYS, FEED_TAG_COUNTS],
  async setup(store) {
    const posts = feedPosts(store);
    await posts.createIndex({ status: 1, pinRank: -1, createdAt: -1, _id: -1 });
    await posts.createIndex({ authorId: 1 });
    // A member's profile: their newest approved posts.
    await posts.createIndex({ authorId: 1, status: 1, createdAt: -1, _id: -1 });
    await posts.createIndex({ reports: 1 });
    await posts.createIndex({ search: 'text' }, { name: 'feed_search' });
    await tagDays(store).createIndex({ day: 1 });
    await tagCounts(store).createIndex({ count: -1, _id: 1 });
  },
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'comment') return countComments(store, typed.event, recorded.position, notify);
    if (typed?.stream !== 'post') return;
    const { id, event } = typed;
    const posts = feedPosts(store);
    const at = recorded.position;
    const before = await posts.findOne({ _id: id });

    const change = (update: (post: FeedPostDocument) => Omit<FeedPostDocument, '_id' | '_position'>) =>
      applyToDocument(posts, id, at, (current) => (current ? update(current) : null));

    switch (event.type) {
      case 'PostSubmitted': {
        const data = event.data;
        const member = await membersCollection(store).findOne({ _id: data.authorId });
        const name = member ? displayName(member) : 'Former member';
        await applyToDocument(posts, id, at, () => ({
          authorId: data.authorId,
          author: { id: data.authorId, name, avatar: member?.profileImageUrl ?? null, role: data.authorRole },
          content: data.content,
          mediaType: data.mediaType,
          mediaUrl: data.mediaUrl,
          mediaTitle: data.mediaTitle,
          tags: data.tags,
          status: data.approved ? ('approved' as const) : ('pending' as const),
          rejectionReason: null,
          pinRank: 0 as const,
          likedBy: [],
          likes: 0,
          comments: 0,
          shares: 0,
          reportedBy: [],
          reports: 0,
          createdAt: data.submittedAt,
          search: [data.content, name, ...data.tags].join('\n').toLowerCase(),
          ...(data.mentions ? { mentions: data.mentions } : {}),
          ...(data.media ? { media: data.media } : {}),
        }));
        const day = data.submittedAt.slice(0, 10);
        await countTags(store, data.tags, day, at);
        for (const tag of data.tags)
          await applyToDocument(tagDays(store), `${tag}:${day}`, at, (current) => ({ tag, day, count: (current?.count ?? 0) + 1 }));
        break;
      }
      case 'PostApproved':
        await change((post) => ({ ...post, status: 'approved', rejectionReason: null }));
        break;
      case 'PostRejected':
        await change((post) => ({ ...post, status: 'rejected', rejectionReason: event.data.reason ?? null, pinRank: 0 }));
        break;
      case 'PostPinned':
        await change((post) => ({ ...post, pinRank: 1 }));
        break;
      case 'PostUnpinned':
        await change((post) => ({ ...post, pinRank: 0 }));
        break;
      case 'PostLiked':
        await change((post) => (post.likedBy.includes(event.data.memberId) ? post : { ...post, likedBy: [...post.likedBy, event.data.memberId], likes: post.likes + 1 }));
        break;
      case 'PostUnliked':
        await change((post) => (post.likedBy.includes(event.data.memberId) ? { ...post, likedBy: post.likedBy.filter((m) => m !== event.data.memberId), likes: post.likes - 1 } : post));
        break;
      case 'PostShared':
        await change((post) => ({ ...post, shares: post.shares + 1 }));
        break;
      case 'PostReported':
        await change((post) => (post.reportedBy.includes(event.data.memberId) ? post : { ...post, reportedBy: [...post.reportedBy, event.data.memberId], reports: post.reports + 1 }));
        break;
      case 'PostReportsDismissed':
        await change((post) => ({ ...post, reportedBy: [], reports: 0 }));
        break;
      case 'PostDeleted':
        await applyToDocument(posts, id, at, () => null);
        break;
    }

    const after = await posts.findOne({ _id: id });
    const subject = after ?? before;
    if (!subject) return;
    const kind = !before ? 'created' : !after ? 'removed' : 'updated';
    const rooms = new Set([...(before ? visibleTo(before) : []), ...(after ? visibleTo(after) : [])]);
    notify({ message: 'posts:changed', rooms: [...rooms], payload: { id, kind } });
    if (before?.status === 'pending' || after?.status === 'pending' || event.type === 'PostReported') {
      const pending = await posts.countDocuments({ status: 'pending' });
      notify({ message: 'pending:changed', rooms: [ROOMS.staff], payload: { posts: pending } });
    }
    if (event.type !== 'PostShared') notify({ message: 'stats:changed', rooms: [ROOMS.members], payload: {} });
  },
};
