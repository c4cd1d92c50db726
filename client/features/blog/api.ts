/** The blog's calls (docs/domain/blog.md), with the hooks its pages use. */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BlogPost } from '../../../shared/blog/schemas';
import type { Media } from '../../../shared/media/schemas';
import { ApiError, answer, api, uploadMedia as upload } from '../../lib/api';
import { usePages } from '../../lib/paged-list';
import { apiQuery, operationKey } from '../../lib/query-keys';

export type { BlogPost };

/** Published posts for readers, page by page. */
export const usePublishedPosts = (tag?: string) => usePages('/api/blog', tag === undefined ? {} : { params: { query: { tag } } });
/** Every post, drafts too, for staff. */
export const useWrittenPosts = () => usePages('/api/admin/blog', {});

/** One post; null when it does not exist or is a draft the reader may not see. */
export function useBlogPost(id: string) {
  return useQuery({
    queryKey: operationKey('/api/blog/{id}', { path: { id } }),
    queryFn: async () => {
      try {
        return await answer(api.GET('/api/blog/{id}', { params: { path: { id } } }));
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
        throw error;
      }
    },
  });
}

/** The draft as a save would store it (sanitised, excerpt generated); nothing is written. */
export const usePreview = (draft: { content: string; excerpt: string }) =>
  useQuery({
    queryKey: ['blog-preview', draft.content, draft.excerpt],
    queryFn: () => answer(api.POST('/api/blog/preview', { body: draft })),
    placeholderData: keepPreviousData,
  });

/** Every read of the blog, refetched after a change by staff. */
export function useRefreshBlog() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [operationKey('/api/blog'), operationKey('/api/admin/blog')].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

/** Uploads a picture (docs/domain/media.md#uploading); the answer names the feed's size. */
export function uploadMedia(file: File): Promise<Media> {
  const form = new FormData();
  form.append('file', file);
  return upload(form);
}

/** An upload's files by name: every picture has `blog.webp` (1600 wide, never upscaled) and `feed.webp` (800). */
export const mediaFile = (media: Pick<Media, 'id'>, file: 'blog.webp' | 'feed.webp') => `/media/${media.id}/${file}`;

/** A picture's own size, read by loading it (the upload's answer gives the feed's size, not the blog's). */
export function pictureSize(src: string): Promise<{ width: number; height: number }> {
  const picture = new Image();
  picture.src = src;
  return picture.decode().then(() => ({ width: picture.naturalWidth, height: picture.naturalHeight }));
}

/** The site's time zone, which the editor's "Schedule" field is in. */
export const useScheduleZone = () => useQuery({ ...apiQuery('/api/admin/blog/time-zone'), staleTime: Infinity });

/**
 * `mediaId` the cover: an upload, or null for none. `slug` absent keeps the address (or, new, makes it from the
 * title); `publishAt` a time schedules the post, null takes the schedule away, absent leaves it.
 */
export const savePost = (
  text: { title: string; excerpt: string; content: string; mediaId: string | null; slug?: string; publishAt?: string | null },
  id?: string,
) =>
  id
    ? answer(api.PATCH('/api/blog/{id}', { params: { path: { id } }, body: text }))
    : // A new post has no schedule to take away: its publishAt is a time or absent.
      answer(
        api.POST('/api/blog', {
          body: { ...text, publishAt: text.publishAt ?? undefined, isPublished: false, isPinned: false, isFeatured: false },
        }),
      );
export const deletePost = (id: string) => answer(api.DELETE('/api/blog/{id}', { params: { path: { id } } }));
export type Toggle = 'publish' | 'unpublish' | 'pin' | 'unpin' | 'feature' | 'unfeature';
export function togglePost(id: string, action: Toggle) {
  const init = { params: { path: { id } } };
  switch (action) {
    case 'publish':
      return answer(api.POST('/api/blog/{id}/publish', init));
    case 'unpublish':
      return answer(api.POST('/api/blog/{id}/unpublish', init));
    case 'pin':
      return answer(api.POST('/api/blog/{id}/pin', init));
    case 'unpin':
      return answer(api.POST('/api/blog/{id}/unpin', init));
    case 'feature':
      return answer(api.POST('/api/blog/{id}/feature', init));
    case 'unfeature':
      return answer(api.POST('/api/blog/{id}/unfeature', init));
  }
}

/** A post's saves, newest first (docs/domain/blog.md#revisions). */
export const useRevisions = (id: string) => useQuery(apiQuery('/api/admin/blog/{id}/revisions', { params: { path: { id } } }));
/** One save's text, for its preview; nothing while `rev` is null. */
export const useRevision = (id: string, rev: string | null) =>
  useQuery({
    ...apiQuery('/api/admin/blog/{id}/revisions/{rev}', { params: { path: { id, rev: rev ?? '' } } }),
    enabled: rev !== null,
  });
/** Restores a save's title, excerpt, text and tags as a new save. */
export const restoreRevision = (id: string, rev: string) =>
  answer(api.POST('/api/admin/blog/{id}/revisions/{rev}/restore', { params: { path: { id, rev } } }));
