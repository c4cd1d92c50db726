/**
 * The newsfeed's read models: `feed_posts` (one document per post, serving the
 * feed, the moderation queue and the post counts of the dashboard),
 * `feed_tag_days` (posts per tag per day), `feed_tag_counts` (posts per tag
 * over the trending window, see shared/feed/trending.ts) and `feed_tag_window`
 * (the newest day of that window). Change notices go to the rooms that may see
 * the post. The authors' names and pictures come from `feed_authors`, kept here
 * from the members' own events.
 */
import type { Collection, DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import type { MediaType } from '../../shared/feed/constants';
import type { Media } from '../../shared/media/schemas';
import { trendingWindowStart } from '../../shared/feed/trending';
import { bylineChange, bylineName, holdsAnything, withId, withoutId, type BylineHolder } from '../../shared/members/byline';
import type { MemberEvent } from '../../shared/members/member-stream';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import type { CommentEvent } from '../../shared/comments/comment-stream';
import { typedEvent } from '../../platform/projections/typed-event';
import type { PostEvent, PostText } from '../../shared/feed/post-stream';
import { ROOMS, type Room } from '../../shared/socket-messages';

export const FEED_POSTS = 'feed_posts';
export const FEED_TAG_DAYS = 'feed_tag_days';
export const FEED_TAG_COUNTS = 'feed_tag_counts';
export const FEED_TAG_WINDOW = 'feed_tag_window';
export const FEED_AUTHORS = 'feed_authors';
export const FEED_REVISIONS = 'feed_revisions';

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
  /** When the visible text last changed after posting (absent or null: never). */
  editedAt?: string | null;
  /** An edit of the author's held for review (only on an approved post). */
  revision?: RevisionText | null;
  /** When it entered the moderation queue, as a post or as a held edit; null when it is not in the queue. */
  reviewAt?: string | null;
  /** Its texts in `feed_revisions`, by id: every one, the visible one and the held one. */
  history?: { ids: string[]; current: string | null; pending: string | null };
};

export type RevisionText = {
  content: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  mediaTitle: string | null;
  tags: string[];
  createdAt: string;
};
export type RevisionStatus = 'original' | 'applied' | 'pending' | 'rejected' | 'replaced';
/** One text of a post, as first posted or as edited (GET /api/posts/{id}/revisions). */
export type RevisionDocument = Positioned &
  RevisionText & { _id: string; postId: string; editedBy: string; status: RevisionStatus; current: boolean };

type TagDay = Positioned & { _id: string; tag: string; day: string; count: number };
/** Keyed by tag: its posts per day over the trending window ending on the newest post's day, and their sum. */
export type TagCountDocument = Positioned & { _id: string; days: Record<string, number>; count: number };
/** The day of the newest post with tags, where the trending window ends: one document, read by `_id` for every such post. */
type TagWindow = Positioned & { _id: string; day: string; tags?: Record<string, string[]> };
const NEWEST_DAY = 'newest';
/** An author: their byline, and their posts (so that a new name or an erasure reaches each post by its id). */
type AuthorDocument = Positioned & BylineHolder<'posts'> & { _id: string };

export const feedPosts = (store: DocumentStore) => store.collection<FeedPostDocument>(FEED_POSTS);
export const tagDays = (store: DocumentStore) => store.collection<TagDay>(FEED_TAG_DAYS);
export const tagCounts = (store: DocumentStore) => store.collection<TagCountDocument>(FEED_TAG_COUNTS);
export const tagWindow = (store: DocumentStore) => store.collection<TagWindow>(FEED_TAG_WINDOW);
export const authors = (store: DocumentStore) => store.collection<AuthorDocument>(FEED_AUTHORS);
export const revisions = (store: DocumentStore) => store.collection<RevisionDocument>(FEED_REVISIONS);

const searchText = (content: string, authorName: string, tags: readonly string[]) =>
  [content, authorName, ...tags].join('\n').toLowerCase();

function visibleTo(post: FeedPostDocument): Room[] {
  return post.status === 'approved' ? [ROOMS.members, ROOMS.public] : [ROOMS.staff, ROOMS.member(post.authorId)];
}

/**
 * Adds a post's tags to `feed_tag_counts`, then to `feed_tag_days`. When the post moves the newest day forward, the
 * tags of the days leaving the window are recounted too, so every count covers the window ending on the newest day
 * and nothing older; the newest day's document keeps the tags of each day in the window for that, so they are read by
 * `_id`. The newest day is written last: a replay of a half-applied post then finds the same one.
 */
async function countTags(store: DocumentStore, tags: readonly string[], day: string, at: number) {
  const window = await tagWindow(store).findOne({ _id: NEWEST_DAY });
  const newest = window?.day;
  const end = newest && newest > day ? newest : day;
  const start = trendingWindowStart(end);
  const days = window?.tags ?? {};
  const leaving = Object.entries(days).flatMap(([kept, tagsOfDay]) => (kept < start ? tagsOfDay : []));
  // A post dated before the window (the demo seed writes the past) keeps its tag-day rows but counts nowhere.
  const counted = day >= start ? tags : [];
  for (const tag of new Set([...counted, ...leaving]))
    await applyToDocument(tagCounts(store), tag, at, (current) => {
      const days = Object.fromEntries(Object.entries(current?.days ?? {}).filter(([kept]) => kept >= start));
      if (counted.includes(tag)) days[day] = (days[day] ?? 0) + 1;
      const count = Object.values(days).reduce((sum, posts) => sum + posts, 0);
      return count > 0 ? { days, count } : null;
    });
  for (const tag of tags)
    await applyToDocument(tagDays(store), `${tag}:${day}`, at, (current) => ({ tag, day, count: (current?.count ?? 0) + 1 }));
  if (end === newest && counted.every((tag) => days[day]?.includes(tag))) return;
  const kept = Object.fromEntries(Object.entries(days).filter(([inWindow]) => inWindow >= start));
  if (counted.length > 0) kept[day] = [...new Set([...(kept[day] ?? []), ...counted])];
  await applyToDocument(tagWindow(store), NEWEST_DAY, at, () => ({ day: end, tags: kept }));
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

/**
 * A post shows its author's name and picture as they are now (the role as it was when posted). An erased member's
 * posts stay as by "Former member", or go when they chose that their content goes (docs/domain/members.md#erasure).
 * The author's document lists their posts: each is reached by its id, and the author's document is written last, so a
 * replay after a crash in between finds the posts still listed.
 */
async function followAuthor(memberId: string, event: MemberEvent, at: number, { store, notify }: ProjectionContext) {
  const change = bylineChange(event);
  if (!change) return;
  const held = await authors(store).findOne({ _id: memberId });
  const removed = event.type === 'MemberErased' && event.data.content === 'removed';
  if (event.type === 'MemberProfileChanged' || event.type === 'MemberErased') {
    // Applied already (a replay after a crash): the posts follow the byline as it stands.
    const byline = held && held._position >= at ? held.byline : change(held?.byline ?? null);
    const name = bylineName(byline);
    const avatar = byline?.profileImageUrl ?? null;
    const unchanged = !removed && held?.byline && bylineName(held.byline) === name && (held.byline.profileImageUrl ?? null) === avatar;
    const posts = feedPosts(store);
    for (const id of unchanged ? [] : (held?.posts ?? [])) {
      const post = await posts.findOne({ _id: id });
      if (!post) continue;
      if (removed) await dropHistory(store, post, at);
      await applyToDocument(
        posts,
        id,
        at,
        (current) =>
          current &&
          (removed
            ? null
            : { ...current, author: { ...current.author, name, avatar }, search: searchText(current.content, name, current.tags) }),
      );
      notify({ message: 'posts:changed', rooms: visibleTo(post), payload: { id, kind: removed ? 'removed' : 'updated' } });
    }
  }
  await applyToDocument(authors(store), memberId, at, (current) => {
    const next = { byline: change(current?.byline ?? null), posts: removed ? [] : (current?.posts ?? []) };
    return holdsAnything(next) ? next : null;
  });
}

/** Lists a post among its author's, or takes it off. */
function listPost(store: DocumentStore, authorId: string, postId: string, listed: boolean, at: number) {
  return applyToDocument(authors(store), authorId, at, (current) => {
    const next = { byline: current?.byline ?? null, posts: listed ? withId(current?.posts, postId) : withoutId(current?.posts, postId) };
    return holdsAnything(next) ? next : null;
  });
}

/** Takes a post's texts out of `feed_revisions` (the post is deleted, or its author's content erased). */
async function dropHistory(store: DocumentStore, post: FeedPostDocument, at: number) {
  for (const id of post.history?.ids ?? []) await applyToDocument(revisions(store), id, at, () => null);
}

/** What a post's text becomes after an edit of it (the media of an upload stays only while the edit keeps it). */
function withText(post: FeedPostDocument, text: PostText): FeedPostDocument {
  const { media: _media, ...rest } = post;
  return {
    ...rest,
    content: text.content,
    mediaType: text.mediaType,
    mediaUrl: text.mediaUrl,
    mediaTitle: text.mediaTitle,
    tags: text.tags,
    search: searchText(text.content, post.author.name, text.tags),
    ...(text.media ? { media: text.media } : {}),
  };
}

const revisionText = (text: PostText, createdAt: string): RevisionText => ({
  content: text.content,
  mediaType: text.mediaType,
  mediaUrl: text.mediaUrl,
  mediaTitle: text.mediaTitle,
  tags: text.tags,
  createdAt,
});

/**
 * Keeps a post's history in `feed_revisions`: each text is a document reached by its id from the post's `history`,
 * so no query runs on the projection's path. Called with the post as it was before the event.
 */
async function keepHistory(store: DocumentStore, postId: string, before: FeedPostDocument | null, event: PostEvent, at: number) {
  const history = revisions(store);
  const key = `${postId}:${at}`;
  const mark = (id: string | null | undefined, change: Partial<Pick<RevisionDocument, 'status' | 'current'>>) =>
    id ? applyToDocument(history, id, at, (current) => current && { ...current, ...change }) : Promise.resolve();
  const write = (text: PostText, createdAt: string, editedBy: string, status: RevisionStatus, current: boolean) =>
    applyToDocument(history, key, at, () => ({ postId, ...revisionText(text, createdAt), editedBy, status, current }));
  switch (event.type) {
    case 'PostSubmitted':
      return write(event.data, event.data.submittedAt, event.data.authorId, 'original', true);
    case 'PostEdited':
      await mark(before?.history?.current, { current: false });
      return write(event.data, event.data.at, event.data.by, 'applied', true);
    case 'PostRevisionSubmitted':
      await mark(before?.history?.pending, { status: 'replaced' });
      return write(event.data, event.data.at, event.data.by, 'pending', false);
    case 'PostRevisionApproved':
      await mark(before?.history?.current, { current: false });
      return mark(before?.history?.pending, { status: 'applied', current: true });
    case 'PostRevisionRejected':
    case 'PostRejected':
      return mark(before?.history?.pending, { status: 'rejected' });
    case 'PostDeleted':
      return before ? dropHistory(store, before, at) : undefined;
  }
}

/** The post's `history` after the event (whose texts `keepHistory` wrote). */
function historyAfter(post: FeedPostDocument, event: PostEvent, at: number): FeedPostDocument['history'] {
  const history = post.history ?? { ids: [], current: null, pending: null };
  const key = `${post._id}:${at}`;
  switch (event.type) {
    case 'PostEdited':
      return { ids: withId(history.ids, key), current: key, pending: history.pending };
    case 'PostRevisionSubmitted':
      return { ids: withId(history.ids, key), current: history.current, pending: key };
    case 'PostRevisionApproved':
      return { ids: history.ids, current: history.pending ?? history.current, pending: null };
    case 'PostRevisionRejected':
    case 'PostRejected':
      return { ...history, pending: null };
    default:
      return history;
  }
}

/** The moderation queue: pending posts and held edits, in the order they entered it. */
export const IN_REVIEW = { reviewAt: { $gt: '' } } as const;

/** Applies `update` to a post, where it exists. Not a closure per event (docs/architecture.md#measured-reasons). */
const changePost = (
  posts: Collection<FeedPostDocument>,
  id: string,
  at: number,
  update: (post: FeedPostDocument) => Omit<FeedPostDocument, '_id' | '_position'>,
) => applyToDocument(posts, id, at, (current) => (current ? update(current) : null));

export const feedProjection: Projection = {
  name: 'feed',
  // 4: edits (editedAt, held revisions and their queue, the history in feed_revisions).
  // 5: without the indexes no query used ({ reports }, { day } on feed_tag_days; { authorId } leads the profile's).
  version: 5,
  collections: [FEED_POSTS, FEED_TAG_DAYS, FEED_TAG_COUNTS, FEED_TAG_WINDOW, FEED_AUTHORS, FEED_REVISIONS],
  async setup(store) {
    const posts = feedPosts(store);
    await posts.createIndex({ status: 1, pinRank: -1, createdAt: -1, _id: -1 });
    // A member's profile: their newest approved posts (and, by its first key, their export).
    await posts.createIndex({ authorId: 1, status: 1, createdAt: -1, _id: -1 });
    await posts.createIndex({ reviewAt: 1, _id: 1 });
    await revisions(store).createIndex({ postId: 1, createdAt: -1, _id: -1 });
    await posts.createIndex({ search: 'text' }, { name: 'feed_search' });
    await tagCounts(store).createIndex({ count: -1, _id: 1 });
  },
  async apply(recorded, context) {
    const { store, notify, live } = context;
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member') return followAuthor(typed.id, typed.event, recorded.position, context);
    if (typed?.stream === 'comment') return countComments(store, typed.event, recorded.position, notify);
    if (typed?.stream !== 'post') return;
    const { id, event } = typed;
    const posts = feedPosts(store);
    const at = recorded.position;
    const before = await posts.findOne({ _id: id });

    switch (event.type) {
      case 'PostSubmitted': {
        const data = event.data;
        const author = (await authors(store).findOne({ _id: data.authorId }))?.byline ?? null;
        const name = bylineName(author);
        await applyToDocument(posts, id, at, () => ({
          authorId: data.authorId,
          author: { id: data.authorId, name, avatar: author?.profileImageUrl ?? null, role: data.authorRole },
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
          search: searchText(data.content, name, data.tags),
          ...(data.mentions ? { mentions: data.mentions } : {}),
          ...(data.media ? { media: data.media } : {}),
          editedAt: null,
          revision: null,
          reviewAt: data.approved ? null : data.submittedAt,
          history: { ids: [`${id}:${at}`], current: `${id}:${at}`, pending: null },
        }));
        await keepHistory(store, id, null, event, at);
        await listPost(store, data.authorId, id, true, at);
        if (data.tags.length > 0) await countTags(store, data.tags, data.submittedAt.slice(0, 10), at);
        break;
      }
      case 'PostApproved':
        await changePost(posts, id, at, (post) => ({ ...post, status: 'approved', rejectionReason: null, reviewAt: null }));
        break;
      case 'PostRejected':
        await keepHistory(store, id, before, event, at);
        await changePost(posts, id, at, (post) => ({
          ...post,
          status: 'rejected',
          rejectionReason: event.data.reason ?? null,
          pinRank: 0,
          revision: null,
          reviewAt: null,
          history: historyAfter(post, event, at),
        }));
        break;
      case 'PostEdited': {
        const { at: editedAt, resubmitted } = event.data;
        await keepHistory(store, id, before, event, at);
        await changePost(posts, id, at, (post) => ({
          ...withText(post, event.data),
          editedAt,
          history: historyAfter(post, event, at),
          ...(resubmitted ? { status: 'pending' as const, rejectionReason: null, reviewAt: editedAt } : {}),
        }));
        break;
      }
      case 'PostRevisionSubmitted':
        await keepHistory(store, id, before, event, at);
        await changePost(posts, id, at, (post) => ({
          ...post,
          revision: revisionText(event.data, event.data.at),
          reviewAt: event.data.at,
          history: historyAfter(post, event, at),
        }));
        break;
      case 'PostRevisionApproved':
        await keepHistory(store, id, before, event, at);
        await changePost(posts, id, at, (post) => {
          if (!post.revision) return post;
          const { createdAt: _written, ...text } = post.revision;
          // An upload stays with the post while the edit keeps its address.
          const media = post.media && post.media.url === text.mediaUrl ? { media: post.media } : {};
          return {
            ...withText(post, { ...text, ...media }),
            editedAt: event.data.at,
            revision: null,
            reviewAt: null,
            history: historyAfter(post, event, at),
          };
        });
        break;
      case 'PostRevisionRejected':
        await keepHistory(store, id, before, event, at);
        await changePost(posts, id, at, (post) => ({ ...post, revision: null, reviewAt: null, history: historyAfter(post, event, at) }));
        break;
      case 'PostPinned':
        await changePost(posts, id, at, (post) => ({ ...post, pinRank: 1 }));
        break;
      case 'PostUnpinned':
        await changePost(posts, id, at, (post) => ({ ...post, pinRank: 0 }));
        break;
      case 'PostLiked':
        await changePost(posts, id, at, (post) =>
          post.likedBy.includes(event.data.memberId)
            ? post
            : { ...post, likedBy: [...post.likedBy, event.data.memberId], likes: post.likes + 1 },
        );
        break;
      case 'PostUnliked':
        await changePost(posts, id, at, (post) =>
          post.likedBy.includes(event.data.memberId)
            ? { ...post, likedBy: post.likedBy.filter((m) => m !== event.data.memberId), likes: post.likes - 1 }
            : post,
        );
        break;
      case 'PostShared':
        await changePost(posts, id, at, (post) => ({ ...post, shares: post.shares + 1 }));
        break;
      case 'PostReported':
        await changePost(posts, id, at, (post) =>
          post.reportedBy.includes(event.data.memberId)
            ? post
            : { ...post, reportedBy: [...post.reportedBy, event.data.memberId], reports: post.reports + 1 },
        );
        break;
      case 'PostReportsDismissed':
        await changePost(posts, id, at, (post) => ({ ...post, reportedBy: [], reports: 0 }));
        break;
      case 'PostDeleted':
        // Taken off its author's list first: a replay after a crash in between finds it again.
        if (before) await listPost(store, before.authorId, id, false, at);
        await keepHistory(store, id, before, event, at);
        await applyToDocument(posts, id, at, () => null);
        break;
    }

    const after = await posts.findOne({ _id: id });
    const subject = after ?? before;
    if (!subject) return;
    const kind = !before ? 'created' : !after ? 'removed' : 'updated';
    // A held edit changes only what its author and staff see.
    const held = event.type === 'PostRevisionSubmitted' || event.type === 'PostRevisionRejected';
    const rooms = held
      ? [ROOMS.staff, ROOMS.member(subject.authorId)]
      : [...(before ? visibleTo(before) : []), ...(after ? visibleTo(after) : [])];
    notify({ message: 'posts:changed', rooms: [...new Set(rooms)], payload: { id, kind } });
    // A count only the notice needs: not read while replaying.
    if (
      live &&
      (before?.reviewAt || after?.reviewAt || before?.status === 'pending' || after?.status === 'pending' || event.type === 'PostReported')
    ) {
      const pending = await posts.countDocuments(IN_REVIEW);
      notify({ message: 'pending:changed', rooms: [ROOMS.staff], payload: { posts: pending } });
    }
    if (event.type !== 'PostShared') notify({ message: 'stats:changed', rooms: [ROOMS.members], payload: {} });
  },
};
