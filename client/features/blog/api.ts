/** The blog's calls (docs/domain/blog.md), with the hooks its pages use. */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BlogPost, BlogPreview } from '../../../shared/blog/schemas';
import type { Media } from '../../../shared/media/schemas';
import { ApiError, apiRequest, apiUpload } from '../../lib/api';
import { usePagedList } from '../../lib/paged-list';
import { apiKey } from '../../lib/query-keys';

export type { BlogPost };

const BLOG = '/api/blog';
const postUrl = (id: string) => `${BLOG}/${encodeURIComponent(id)}`;

/** Published posts for readers, page by page. */
export const usePublishedPosts = () => usePagedList<BlogPost>(BLOG);
/** Every post, drafts too, for staff. */
export const useWrittenPosts = () => usePagedList<BlogPost>('/api/admin/blog');

/** One post; null when it does not exist or is a draft the reader may not see. */
export function useBlogPost(id: string) {
  return useQuery({
    queryKey: apiKey(postUrl(id)),
    queryFn: async () => {
      try {
        return await apiRequest<BlogPost>('GET', postUrl(id));
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
    queryFn: () => apiRequest<BlogPreview>('POST', `${BLOG}/preview`, draft),
    placeholderData: keepPreviousData,
  });

/** Every read of the blog, refetched after a change by staff. */
export function useRefreshBlog() {
  const queryClient = useQueryClient();
  return () => Promise.all([BLOG, '/api/admin/blog'].map((address) => queryClient.invalidateQueries({ queryKey: apiKey(address) })));
}

/** Uploads a picture (docs/domain/media.md#uploading); the answer names the feed's size. */
export function uploadMedia(file: File): Promise<Media> {
  const form = new FormData();
  form.append('file', file);
  return apiUpload<Media>('/api/media', form);
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
export const useScheduleZone = () =>
  useQuery({
    queryKey: apiKey('/api/admin/blog/time-zone'),
    queryFn: () => apiRequest<{ timeZone: string }>('GET', '/api/admin/blog/time-zone'),
    staleTime: Infinity,
  });

/**
 * `mediaId` the cover: an upload, or null for none. `slug` absent keeps the address (or, new, makes it from the
 * title); `publishAt` a time schedules the post, null takes the schedule away, absent leaves it.
 */
export const savePost = (
  text: { title: string; excerpt: string; content: string; mediaId: string | null; slug?: string; publishAt?: string | null },
  id?: string,
) =>
  id
    ? apiRequest<BlogPost>('PATCH', postUrl(id), text)
    : apiRequest<BlogPost>('POST', BLOG, { ...text, isPublished: false, isPinned: false, isFeatured: false });
export const deletePost = (id: string) => apiRequest('DELETE', postUrl(id));
export type Toggle = 'publish' | 'unpublish' | 'pin' | 'unpin' | 'feature' | 'unfeature';
export const togglePost = (id: string, action: Toggle) => apiRequest<BlogPost>('POST', `${postUrl(id)}/${action}`);
