/**
 * A blog post (stream `blog-<id>`), written and managed by admin and staff.
 * `publishedAt` is the time of the first publication and survives unpublish/publish;
 * `firstPublication` tells reactors whether to e-mail subscribers.
 */
import { type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';
import type { Media } from '../media/schemas';

export type BlogPostEvent =
  | {
      type: 'BlogPostDrafted';
      /** `media` absent when the post shows no upload. */
      data: { id: string; authorId: string; title: string; excerpt: string; content: string; tags: string[]; media?: Media; createdAt: string };
    }
  | {
      type: 'BlogPostEdited';
      /** `tags` and `media` absent when the edit left them alone; `media` null when it took the upload away. */
      data: { title: string; excerpt: string; content: string; tags?: string[]; media?: Media | null; by: string; at: string };
    }
  | { type: 'BlogPostPublished'; data: { publishedAt: string; firstPublication: boolean; by: string; at: string } }
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
      data: BlogPostText & { id: string; tags: string[]; media?: Media; isPublished: boolean; isPinned: boolean; isFeatured: boolean };
      metadata: CommandMetadata;
    }
  | { type: 'EditBlogPost'; data: BlogPostText & { tags?: string[]; media?: Media | null }; metadata: CommandMetadata }
  | { type: 'PublishBlogPost'; data: Record<string, never>; metadata: CommandMetadata }
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
    mediaId: null,
    published: false,
    pinned: false,
    featured: false,
    publishedAt: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'BlogPostDrafted': {
        const { title, excerpt, content, tags, media } = event.data;
        return { ...state, status: 'active', title, excerpt, content, tags, mediaId: media?.id ?? null };
      }
      case 'BlogPostEdited': {
        const { title, excerpt, content, tags, media } = event.data;
        return { ...state, title, excerpt, content, tags: tags ?? state.tags, mediaId: media === undefined ? state.mediaId : (media?.id ?? null) };
      }
      case 'BlogPostPublished':
        return { ...state, published: true, publishedAt: event.data.publishedAt };
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
    if (!actor) throw fail.unauthenticated();
    if (!BLOG_WRITERS.includes(actor.role)) throw fail.forbidden('Only admins and staff can manage blog posts');
    const change: BlogPostChange = { by: actor.id, at: now.toISOString() };

    if (command.type === 'CreateBlogPost') {
      if (state.status !== 'none') throw fail.conflict('This blog post already exists');
      const { id, title, excerpt, content, tags, media, isPublished, isPinned, isFeatured } = command.data;
      // The create dialog can set every toggle at once; each still becomes its own event so projections and reactors handle one path.
      return [
        { type: 'BlogPostDrafted', data: { id, authorId: actor.id, title, excerpt, content, tags, ...(media ? { media } : {}), createdAt: change.at } },
        ...(isPublished ? [publication(state, change)] : []),
        ...(isPinned ? [{ type: 'BlogPostPinned' as const, data: change }] : []),
        ...(isFeatured ? [{ type: 'BlogPostFeatured' as const, data: change }] : []),
      ];
    }
    if (state.status !== 'active') throw fail.notFound('Blog post not found');

    switch (command.type) {
      case 'EditBlogPost': {
        const { title, excerpt, content, tags, media } = command.data;
        const tagsChanged = tags !== undefined && !sameList(tags, state.tags);
        const mediaChanged = media !== undefined && (media?.id ?? null) !== state.mediaId;
        if (title === state.title && excerpt === state.excerpt && content === state.content && !tagsChanged && !mediaChanged) return [];
        return [{ type: 'BlogPostEdited', data: { title, excerpt, content, ...(tagsChanged ? { tags } : {}), ...(mediaChanged ? { media } : {}), ...change } }];
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

function publication(state: BlogPostState, change: BlogPostChange): BlogPostEvent {
  return {
    type: 'BlogPostPublished',
    data: { publishedAt: state.publishedAt ?? change.at, firstPublication: state.publishedAt === null, ...change },
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
