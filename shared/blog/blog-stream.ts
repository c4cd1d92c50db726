/**
 * A blog post (stream `blog-<id>`), written and managed by admin and staff.
 * `publishedAt` is the time of the first publication and survives unpublish/publish;
 * `firstPublication` tells reactors whether to e-mail subscribers. `slug` (the post's address) is chosen and claimed by the
 * server before the command, so a replay gives the same slugs; posts drafted before slugs get theirs from the projection.
 * `publishAt` schedules the first publication: the scheduler issues `PublishScheduledBlogPost` then.
 */
import { type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';
import type { Media } from '../media/schemas';

export type BlogPostEvent =
  | {
      type: 'BlogPostDrafted';
      /** `media` absent when the post shows no upload. */
      /** `slug` absent in posts drafted before slugs. */
      data: {
        id: string;
        authorId: string;
        title: string;
        slug?: string;
        excerpt: string;
        content: string;
        tags: string[];
        media?: Media;
        createdAt: string;
      };
    }
  | {
      type: 'BlogPostEdited';
      /** `tags`, `slug` and `media` absent when the edit left them alone; `media` null when it took the upload away. */
      data: {
        title: string;
        excerpt: string;
        content: string;
        tags?: string[];
        slug?: string;
        media?: Media | null;
        by: string;
        at: string;
      };
    }
  | { type: 'BlogPostPublished'; data: { publishedAt: string; firstPublication: boolean; by: string; at: string } }
  | { type: 'BlogPostScheduled'; data: { publishAt: string; by: string; at: string } }
  | { type: 'BlogPostUnscheduled'; data: BlogPostChange }
  | { type: 'BlogPostUnpublished'; data: BlogPostChange }
  | { type: 'BlogPostPinned'; data: BlogPostChange }
  | { type: 'BlogPostUnpinned'; data: BlogPostChange }
  | { type: 'BlogPostFeatured'; data: BlogPostChange }
  | { type: 'BlogPostUnfeatured'; data: BlogPostChange }
  | { type: 'BlogPostDeleted'; data: BlogPostChange };

/** Who changed the post and when (the post page shows an 'Updated' date). */
export interface BlogPostChange {
  by: string;
  at: string;
}

/**
 * `content` must already be sanitised (`sanitizeBlogHtml`, server side) and `excerpt`
 * already generated when the author left it empty (`generateExcerpt`): decide stays
 * pure and cheap, and sanitising happens once, on write.
 */
export interface BlogPostText {
  title: string;
  excerpt: string;
  content: string;
}

export type BlogPostCommand =
  | {
      type: 'CreateBlogPost';
      /** `slug` claimed by the caller; absent, the projection makes one from the title (as for older posts). */
      data: BlogPostText & {
        id: string;
        slug?: string;
        tags: string[];
        media?: Media;
        isPublished: boolean;
        isPinned: boolean;
        isFeatured: boolean;
        publishAt?: string;
      };
      metadata: CommandMetadata;
    }
  /** `publishAt` a time schedules the post, null takes the schedule away, absent leaves it. */
  | {
      type: 'EditBlogPost';
      data: BlogPostText & { slug?: string; tags?: string[]; media?: Media | null; publishAt?: string | null };
      metadata: CommandMetadata;
    }
  | { type: 'PublishBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
  /** Issued by the schedule (no actor) once `publishAt` has come; a no-op unless the post is still scheduled for it. */
  | { type: 'PublishScheduledBlogPost'; data: { publishAt: string }; metadata: CommandMetadata }
  | { type: 'UnpublishBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'PinBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'UnpinBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'FeatureBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'UnfeatureBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'DeleteBlogPost'; data: Record<string, never>; metadata: CommandMetadata };

export interface BlogPostState {
  status: 'none' | 'active' | 'deleted';
  title: string;
  excerpt: string;
  content: string;
  tags: string[];
  /** Its address; null for a post drafted before slugs and never given one since. */
  slug: string | null;
  /** When it is to be published, and who scheduled it; null when not scheduled. */
  scheduledFor: string | null;
  scheduledBy: string | null;
  /** The upload it shows; null for none. */
  mediaId: string | null;
  published: boolean;
  pinned: boolean;
  featured: boolean;
  /** Time of the first publication; null until then. */
  publishedAt: string | null;
}

const BLOG_WRITERS: readonly Role[] = ['admin', 'staff'];

export const blogPostDecider: Decider<BlogPostState, BlogPostCommand, BlogPostEvent> = {
  initialState: () => ({
    status: 'none',
    title: '',
    excerpt: '',
    content: '',
    tags: [],
    slug: null,
    scheduledFor: null,
    scheduledBy: null,
    mediaId: null,
    published: false,
    pinned: false,
    featured: false,
    publishedAt: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'BlogPostDrafted': {
        const { title, slug, excerpt, content, tags, media } = event.data;
        return { ...state, status: 'active', title, slug: slug ?? null, excerpt, content, tags, mediaId: media?.id ?? null };
      }
      case 'BlogPostEdited': {
        const { title, slug, excerpt, content, tags, media } = event.data;
        return {
          ...state,
          title,
          slug: slug ?? state.slug,
          excerpt,
          content,
          tags: tags ?? state.tags,
          mediaId: media === undefined ? state.mediaId : (media?.id ?? null),
        };
      }
      case 'BlogPostScheduled':
        return { ...state, scheduledFor: event.data.publishAt, scheduledBy: event.data.by };
      case 'BlogPostUnscheduled':
        return { ...state, scheduledFor: null, scheduledBy: null };
      case 'BlogPostPublished':
        return { ...state, published: true, publishedAt: event.data.publishedAt, scheduledFor: null, scheduledBy: null };
      case 'BlogPostUnpublished':
        return { ...state, published: false };
      case 'BlogPostPinned':
        return { ...state, pinned: true };
      case 'BlogPostUnpinned':
        return { ...state, pinned: false };
      case 'BlogPostFeatured':
        return { ...state, featured: true };
      case 'BlogPostUnfeatured':
        return { ...state, featured: false };
      case 'BlogPostDeleted':
        return { ...state, status: 'deleted' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const { actor, now } = command.metadata;
    // The schedule acts for the member who scheduled the post, at the time they chose; a changed or
    // cancelled schedule, a post published or deleted meanwhile, or a second run: nothing.
    if (command.type === 'PublishScheduledBlogPost') {
      const { publishAt } = command.data;
      if (state.status !== 'active' || state.published || state.scheduledFor !== publishAt || now.getTime() < Date.parse(publishAt))
        return [];
      return [publication(state, { by: state.scheduledBy ?? '', at: publishAt })];
    }
    if (!actor) throw fail.unauthenticated();
    if (!BLOG_WRITERS.includes(actor.role)) throw fail.forbidden('Only admins and staff can manage blog posts');
    const change: BlogPostChange = { by: actor.id, at: now.toISOString() };

    if (command.type === 'CreateBlogPost') {
      if (state.status !== 'none') throw fail.conflict('This blog post already exists');
      const { id, title, slug, excerpt, content, tags, media, isPublished, isPinned, isFeatured, publishAt } = command.data;
      if (publishAt !== undefined) futureOnly(publishAt, now);
      // The create dialog can set every toggle at once; each still becomes its own event so projections and reactors handle one path.
      return [
        {
          type: 'BlogPostDrafted',
          data: {
            id,
            authorId: actor.id,
            title,
            ...(slug ? { slug } : {}),
            excerpt,
            content,
            tags,
            ...(media ? { media } : {}),
            createdAt: change.at,
          },
        },
        // A time to publish at wins over "publish now": the post waits for it.
        ...(publishAt !== undefined
          ? [{ type: 'BlogPostScheduled' as const, data: { publishAt, ...change } }]
          : isPublished
            ? [publication(state, change)]
            : []),
        ...(isPinned ? [{ type: 'BlogPostPinned' as const, data: change }] : []),
        ...(isFeatured ? [{ type: 'BlogPostFeatured' as const, data: change }] : []),
      ];
    }
    if (state.status !== 'active') throw fail.notFound('Blog post not found');

    switch (command.type) {
      case 'EditBlogPost': {
        const { title, slug, excerpt, content, tags, media, publishAt } = command.data;
        const tagsChanged = tags !== undefined && !sameList(tags, state.tags);
        const mediaChanged = media !== undefined && (media?.id ?? null) !== state.mediaId;
        const slugChanged = slug !== undefined && slug !== state.slug;
        const textChanged =
          title !== state.title || excerpt !== state.excerpt || content !== state.content || tagsChanged || mediaChanged || slugChanged;
        const edited: BlogPostEvent[] = textChanged
          ? [
              {
                type: 'BlogPostEdited',
                data: {
                  title,
                  excerpt,
                  content,
                  ...(tagsChanged ? { tags } : {}),
                  ...(slugChanged ? { slug } : {}),
                  ...(mediaChanged ? { media } : {}),
                  ...change,
                },
              },
            ]
          : [];
        return [...edited, ...schedule(state, publishAt, now, change)];
      }
      case 'PublishBlogPost':
        return state.published ? [] : [publication(state, change)];
      case 'UnpublishBlogPost':
        return state.published ? [{ type: 'BlogPostUnpublished', data: change }] : [];
      case 'PinBlogPost':
        return state.pinned ? [] : [{ type: 'BlogPostPinned', data: change }];
      case 'UnpinBlogPost':
        return state.pinned ? [{ type: 'BlogPostUnpinned', data: change }] : [];
      case 'FeatureBlogPost':
        return state.featured ? [] : [{ type: 'BlogPostFeatured', data: change }];
      case 'UnfeatureBlogPost':
        return state.featured ? [{ type: 'BlogPostUnfeatured', data: change }] : [];
      case 'DeleteBlogPost':
        return [{ type: 'BlogPostDeleted', data: change }];
      default:
        return assertNever(command);
    }
  },
};

/** A time to publish at must be ahead; the schedule is for drafts. */
function futureOnly(publishAt: string, now: Date) {
  if (Date.parse(publishAt) <= now.getTime())
    throw fail.invalid('Choose a time in the future', { publishAt: 'Choose a time in the future' });
}

/** What an edit does to the schedule: `publishAt` a time sets it, null takes it away, absent (or the same time) leaves it. */
function schedule(state: BlogPostState, publishAt: string | null | undefined, now: Date, change: BlogPostChange): BlogPostEvent[] {
  if (publishAt === undefined || publishAt === state.scheduledFor) return [];
  if (publishAt === null) return state.scheduledFor ? [{ type: 'BlogPostUnscheduled', data: change }] : [];
  if (state.published) throw fail.rule('This post is published already');
  futureOnly(publishAt, now);
  return [{ type: 'BlogPostScheduled', data: { publishAt, ...change } }];
}

function publication(state: BlogPostState, change: BlogPostChange): BlogPostEvent {
  return {
    type: 'BlogPostPublished',
    data: { publishedAt: state.publishedAt ?? change.at, firstPublication: state.publishedAt === null, ...change },
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
