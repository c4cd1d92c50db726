/**
 * The blog's read model: `blog_posts`, one document per post, serving lists, the post page, management and RSS. The
 * authors' names, pictures and roles come from `blog_authors`, kept here from the members' own events.
 */
import type { Media } from '../../shared/media/schemas';
import type { DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import type { MemberEvent } from '../../shared/members/member-stream';
import type { CommentEvent } from '../../shared/comments/comment-stream';
import { bylineChange, bylineName, holdsAnything, withId, withoutId, type Byline, type BylineHolder } from '../../shared/members/byline';
import { FORMER_MEMBER } from '../../shared/personal-data';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS, type Room } from '../../shared/socket-messages';
import { slugCandidate, slugify } from '../../shared/blog/slug';

export const BLOG_POSTS = 'blog_posts';
export const BLOG_AUTHORS = 'blog_authors';
/** Every slug a post has had, to the post: its address now, and the earlier ones that lead to it. */
export const BLOG_SLUGS = 'blog_slugs';
/** Every save of a post (its draft and each edit of its text): what staff list, preview and restore. */
export const BLOG_REVISIONS = 'blog_revisions';
/** One entry per tag of each published post, so a tag's page and feed are an index range, not a scan of every post. */
export const BLOG_TAG_POSTS = 'blog_tag_posts';

export type BlogPostDocument = Positioned & {
  _id: string;
  title: string;
  /** Its address, `/blog/<slug>`. */
  slug: string;
  /** Earlier slugs, which answer 301 to the current one. */
  oldSlugs: string[];
  /** When a scheduled post will be published; null when not scheduled. */
  publishAt: string | null;
  excerpt: string;
  content: string;
  tags: string[];
  /** An upload shown with the post (absent or null: none). */
  media?: Media | null;
  isPublished: boolean;
  isPinned: boolean;
  isFeatured: boolean;
  /** 1 when pinned, for a plain numeric sort. */
  pinRank: 0 | 1;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** publishedAt, else createdAt: what lists sort by and show. */
  shownAt: string;
  authorId: string;
  author: { name: string; role: Role; firstName: string; lastName: string; profileImageUrl: string | null };
  /** Comments in its thread that are not removed. */
  comments: number;
};

/** A save of a post: its text as it was saved, by whom and when (the author's name is read from `blog_authors`). */
export type BlogRevisionDocument = Positioned & {
  /** The id of the event that saved it. */
  _id: string;
  postId: string;
  at: string;
  authorId: string;
  title: string;
  excerpt: string;
  content: string;
  tags: string[];
};

/** A published post under one of its tags, in readers' order. */
export type BlogTagPostDocument = Positioned & { _id: string; tag: string; postId: string; shownAt: string };

/** An author: their byline, and their posts (so that a change of theirs reaches each post by its id). */
type AuthorDocument = Positioned & BylineHolder<'posts'> & { _id: string };
/** A slug and the post it leads to. */
export type BlogSlugDocument = Positioned & { _id: string; postId: string };

export const blogPosts = (store: DocumentStore) => store.collection<BlogPostDocument>(BLOG_POSTS);
const authors = (store: DocumentStore) => store.collection<AuthorDocument>(BLOG_AUTHORS);
export const blogSlugs = (store: DocumentStore) => store.collection<BlogSlugDocument>(BLOG_SLUGS);
export const blogRevisions = (store: DocumentStore) => store.collection<BlogRevisionDocument>(BLOG_REVISIONS);
export const blogTagPosts = (store: DocumentStore) => store.collection<BlogTagPostDocument>(BLOG_TAG_POSTS);
export const blogAuthors = authors;

/** Keeps a revision of the post as this event saved it. */
function keepRevision(store: DocumentStore, eventId: string, post: BlogPostDocument, by: string, at: string, position: number) {
  const { title, excerpt, content, tags } = post;
  return applyToDocument(blogRevisions(store), eventId, position, () => ({
    postId: post._id,
    at,
    authorId: by,
    title,
    excerpt,
    content,
    tags,
  }));
}

/** A post's revisions go with it (deleted, or taken away with its erased author). */
const dropRevisions = (store: DocumentStore, postId: string) => blogRevisions(store).deleteMany({ postId });

const tagEntryId = (postId: string, tag: string) => `${postId}|${tag}`;
const tagEntries = (post: BlogPostDocument | null) =>
  new Map(post?.isPublished ? post.tags.map((tag) => [tagEntryId(post._id, tag), { tag, postId: post._id, shownAt: post.shownAt }]) : []);

/** The post's tag entries follow it: one per tag while it is published, with the time it is shown at. */
async function followTags(store: DocumentStore, before: BlogPostDocument | null, after: BlogPostDocument | null, position: number) {
  const was = tagEntries(before);
  const is = tagEntries(after);
  for (const [id, entry] of is) {
    const old = was.get(id);
    if (!old || old.shownAt !== entry.shownAt) await applyToDocument(blogTagPosts(store), id, position, () => entry);
  }
  for (const id of was.keys()) if (!is.has(id)) await applyToDocument(blogTagPosts(store), id, position, () => null);
}

/**
 * A post drafted before slugs gets one from its title here, the first of `title`, `title-2`… no other post holds.
 * The log's order decides, so a rebuild gives every post the same slug.
 */
async function freeSlug(store: DocumentStore, title: string, postId: string): Promise<string> {
  const base = slugify(title);
  for (let n = 1; ; n++) {
    const candidate = slugCandidate(base, n);
    const holder = await blogSlugs(store).findOne({ _id: candidate });
    if (!holder || holder.postId === postId) return candidate;
  }
}

/** Records that `slug` leads to the post (a slug the server claimed is the post's for good). */
const holdSlug = (store: DocumentStore, slug: string, postId: string, at: number) =>
  applyToDocument(blogSlugs(store), slug, at, () => ({ postId }));

/** The author as a post shows them; a member the blog does not know (erased) as "Former member", in the role they wrote in. */
function authorOf(byline: Byline | null, role: Role): BlogPostDocument['author'] {
  const { firstName, lastName, profileImageUrl } = byline ?? { ...FORMER_MEMBER, profileImageUrl: null };
  return { name: bylineName(byline), role: byline?.role ?? role, firstName, lastName, profileImageUrl };
}

/** Readers see posts that are published now or were until this change; drafts concern staff only. */
const roomsFor = (wasOrIsPublished: boolean): Room[] => (wasOrIsPublished ? [ROOMS.members, ROOMS.public] : [ROOMS.staff]);

/**
 * The post page shows the author's current name, picture and role. An erased member's posts stay as by "Former
 * member", or go when they chose that their content goes (docs/domain/members.md#erasure). The author's document lists
 * their posts, each reached by its id; it is written last, so a replay after a crash in between finds them still listed.
 */
async function followAuthor(authorId: string, event: MemberEvent, at: number, { store, notify }: ProjectionContext) {
  const change = bylineChange(event);
  if (!change) return;
  const held = await authors(store).findOne({ _id: authorId });
  const removed = event.type === 'MemberErased' && event.data.content === 'removed';
  // Applied already (a replay after a crash): the posts follow the byline as it stands.
  const byline = held && held._position >= at ? held.byline : change(held?.byline ?? null);
  const unchanged = event.type === 'MemberRegistered' || (!removed && held?.byline && byline && sameByline(held.byline, byline));
  const posts = blogPosts(store);
  for (const id of unchanged ? [] : (held?.posts ?? [])) {
    const post = await posts.findOne({ _id: id });
    if (!post) continue;
    await applyToDocument(
      posts,
      id,
      at,
      (current) => current && (removed ? null : { ...current, author: authorOf(byline, current.author.role) }),
    );
    if (removed) {
      await followTags(store, post, null, at);
      await dropRevisions(store, id);
    }
    notify({ message: 'blog:changed', rooms: roomsFor(post.isPublished), payload: { id, kind: removed ? 'removed' : 'updated' } });
  }
  await applyToDocument(authors(store), authorId, at, (current) => {
    const next = { byline: change(current?.byline ?? null), posts: removed ? [] : (current?.posts ?? []) };
    return holdsAnything(next) ? next : null;
  });
}

/** Whether two bylines show the same on a post. */
const sameByline = (one: Byline, other: Byline) =>
  one.firstName === other.firstName &&
  one.lastName === other.lastName &&
  one.role === other.role &&
  one.profileImageUrl === other.profileImageUrl;

/** Lists a post among its author's, or takes it off. */
function listPost(store: DocumentStore, authorId: string, postId: string, listed: boolean, at: number) {
  return applyToDocument(authors(store), authorId, at, (current) => {
    const next = { byline: current?.byline ?? null, posts: listed ? withId(current?.posts, postId) : withoutId(current?.posts, postId) };
    return holdsAnything(next) ? next : null;
  });
}

/** A post's comment count follows its thread: one more for each comment written, one less for each removed. */
async function countComments(event: CommentEvent, at: number, { store, notify }: ProjectionContext) {
  if (event.data.targetType !== 'blog' || (event.type !== 'CommentWritten' && event.type !== 'CommentRemoved')) return;
  const id = event.data.targetId;
  const step = event.type === 'CommentWritten' ? 1 : -1;
  await applyToDocument(blogPosts(store), id, at, (post) => post && { ...post, comments: post.comments + step });
  const post = await blogPosts(store).findOne({ _id: id });
  if (post) notify({ message: 'blog:changed', rooms: roomsFor(post.isPublished), payload: { id, kind: 'updated' } });
}

export const blogProjection: Projection = {
  name: 'blog',
  // 4: slugs (older posts get theirs from their titles) and scheduled publication. 5: revisions and tag entries.
  version: 5,
  collections: [BLOG_POSTS, BLOG_AUTHORS, BLOG_SLUGS, BLOG_REVISIONS, BLOG_TAG_POSTS],
  async setup(store) {
    await blogPosts(store).createIndex({ isPublished: 1, pinRank: -1, shownAt: -1 });
    await blogPosts(store).createIndex({ isPublished: 1, shownAt: -1, _id: -1 });
    await blogRevisions(store).createIndex({ postId: 1, at: -1, _id: -1 });
    await blogTagPosts(store).createIndex({ tag: 1, shownAt: -1, _id: -1 });
    await blogPosts(store).createIndex({ publishAt: 1 });
    await blogPosts(store).createIndex({ authorId: 1 });
  },
  async apply(recorded, context) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member') return followAuthor(typed.id, typed.event, recorded.position, context);
    if (typed?.stream === 'comment') return countComments(typed.event, recorded.position, context);
    if (typed?.stream !== 'blog') return;
    const { store, notify } = context;
    const { id, event } = typed;
    const posts = blogPosts(store);
    const before = await posts.findOne({ _id: id });
    const change = (update: (post: BlogPostDocument) => Partial<BlogPostDocument>, at?: string) =>
      applyToDocument(posts, id, recorded.position, (current) =>
        current ? { ...current, ...update(current), ...(at ? { updatedAt: at } : {}) } : null,
      );

    switch (event.type) {
      case 'BlogPostDrafted': {
        const data = event.data;
        const byline = (await authors(store).findOne({ _id: data.authorId }))?.byline ?? null;
        const slug = data.slug ?? (await freeSlug(store, data.title, id));
        await holdSlug(store, slug, id, recorded.position);
        await listPost(store, data.authorId, id, true, recorded.position);
        await applyToDocument(posts, id, recorded.position, () => ({
          title: data.title,
          slug,
          oldSlugs: [],
          publishAt: null,
          excerpt: data.excerpt,
          content: data.content,
          tags: data.tags,
          ...(data.media ? { media: data.media } : {}),
          isPublished: false,
          isPinned: false,
          isFeatured: false,
          pinRank: 0 as const,
          createdAt: data.createdAt,
          updatedAt: data.createdAt,
          publishedAt: null,
          shownAt: data.createdAt,
          authorId: data.authorId,
          author: authorOf(byline, 'staff'),
          comments: 0,
        }));
        break;
      }
      case 'BlogPostEdited': {
        const { slug } = event.data;
        if (slug !== undefined) await holdSlug(store, slug, id, recorded.position);
        const moved = (post: BlogPostDocument) =>
          slug === undefined || slug === post.slug ? {} : { slug, oldSlugs: [...post.oldSlugs.filter((old) => old !== slug), post.slug] };
        await change(
          (post) => ({
            ...moved(post),
            title: event.data.title,
            excerpt: event.data.excerpt,
            content: event.data.content,
            ...(event.data.tags ? { tags: event.data.tags } : {}),
            ...(event.data.media !== undefined ? { media: event.data.media } : {}),
          }),
          event.data.at,
        );
        break;
      }
      case 'BlogPostScheduled':
        await change(() => ({ publishAt: event.data.publishAt }), event.data.at);
        break;
      case 'BlogPostUnscheduled':
        await change(() => ({ publishAt: null }), event.data.at);
        break;
      case 'BlogPostPublished':
        await change(() => ({ isPublished: true, publishedAt: event.data.publishedAt, shownAt: event.data.publishedAt, publishAt: null }));
        break;
      case 'BlogPostUnpublished':
        await change(() => ({ isPublished: false }));
        break;
      case 'BlogPostPinned':
        await change(() => ({ isPinned: true, pinRank: 1 }));
        break;
      case 'BlogPostUnpinned':
        await change(() => ({ isPinned: false, pinRank: 0 }));
        break;
      case 'BlogPostFeatured':
        await change(() => ({ isFeatured: true }));
        break;
      case 'BlogPostUnfeatured':
        await change(() => ({ isFeatured: false }));
        break;
      case 'BlogPostDeleted':
        // Taken off its author's list first: a replay after a crash in between finds it again.
        if (before) await listPost(store, before.authorId, id, false, recorded.position);
        await dropRevisions(store, id);
        await applyToDocument(posts, id, recorded.position, () => null);
        break;
    }
    const after = await posts.findOne({ _id: id });
    await followTags(store, before, after, recorded.position);
    if (after && event.type === 'BlogPostDrafted')
      await keepRevision(store, recorded.id, after, event.data.authorId, event.data.createdAt, recorded.position);
    if (after && event.type === 'BlogPostEdited')
      await keepRevision(store, recorded.id, after, event.data.by, event.data.at, recorded.position);
    const kind = !before ? 'created' : !after ? 'removed' : 'updated';
    notify({ message: 'blog:changed', rooms: roomsFor(Boolean(before?.isPublished || after?.isPublished)), payload: { id, kind } });
  },
};
