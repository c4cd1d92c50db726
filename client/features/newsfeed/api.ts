/** The newsfeed's calls (docs/domain/feed.md), with the hooks its pages use. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommunityStats, NewPost, Post, PostEdit, PostRevision } from '../../../shared/feed/schemas';
import type { MemberRow } from '../../../shared/members/schemas';
import type { Media } from '../../../shared/media/schemas';
import { ApiError, apiRequest, apiUpload } from '../../lib/api';
import { fetchAllPages, usePagedList, type Page } from '../../lib/paged-list';
import { apiKey, getQuery } from '../../lib/query-keys';

export type FeedFilter = 'all' | 'trending' | 'following';
export type { Post, PostRevision };

const POSTS = '/api/posts';
/** Staff see who is online beside each author: only those members, not the whole member list. */
const ONLINE_MEMBERS = '/api/admin/users?online=true&limit=100';

function feedUrl(params: Record<string, string | undefined>) {
  const search = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  return `${POSTS}?${search}`;
}

/** The feed as the reader filters and searches it, page by page. */
export const useFeed = (filter: FeedFilter, q: string) => usePagedList<Post>(feedUrl({ filter, q }));
/** How many posts a filter chip holds (up to a page of 100). */
export const useFilterCount = (filter: FeedFilter) => useQuery({ ...getQuery<Page<Post>>(feedUrl({ filter, limit: '100' })), select: (page) => page.items.length });
export const useCommunityStats = () => useQuery(getQuery<CommunityStats>('/api/stats'));
export const useOnlineMembers = (enabled: boolean) =>
  useQuery({ queryKey: apiKey(ONLINE_MEMBERS), queryFn: () => fetchAllPages<MemberRow>(ONLINE_MEMBERS), enabled, select: (rows) => new Set(rows.filter((row) => row.status === 'online').map((row) => row.id)) });

/** Every read of the feed, refetched after one of the reader's own changes. */
export function useRefreshFeed() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: apiKey(POSTS) });
}

export function useSubmitPost() {
  const refresh = useRefreshFeed();
  return useMutation({ mutationFn: (post: NewPost) => apiRequest<Post>('POST', POSTS, post), onSuccess: refresh });
}

/** Uploads a photo or audio file for a post (docs/domain/media.md#uploading); the post then names it by `mediaId`. */
export function useUploadMedia() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiUpload<Media>('/api/media', form);
    },
  });
}

/** What a reader does to a post from its card. */
export type PostAction = 'like' | 'unlike' | 'share' | 'report';
const ACTIONS: Record<PostAction, { method: string; path: string }> = {
  like: { method: 'PUT', path: 'like' },
  unlike: { method: 'DELETE', path: 'like' },
  share: { method: 'POST', path: 'share' },
  report: { method: 'POST', path: 'report' },
};

export function usePostAction() {
  const refresh = useRefreshFeed();
  return useMutation({
    // A report may say why (`reason`, shown to staff only).
    mutationFn: ({ post, action, reason }: { post: Pick<Post, 'id'>; action: PostAction; reason?: string | undefined }) =>
      apiRequest<Post>(ACTIONS[action].method, `${POSTS}/${encodeURIComponent(post.id)}/${ACTIONS[action].path}`, reason ? { reason } : undefined),
    onSuccess: refresh,
  });
}

/** One post as the feed shows it (/posts/{id}); `null` when there is no such post the reader may see. */
export const usePost = (id: string) =>
  useQuery({
    queryKey: apiKey(`${POSTS}/${id}`),
    queryFn: () => apiRequest<Post>('GET', `${POSTS}/${encodeURIComponent(id)}`).catch((error: unknown) => (error instanceof ApiError && (error.status === 404 || error.status === 400) ? null : Promise.reject(error))),
  });

/** A post's texts, newest first (its author and staff). */
export const usePostRevisions = (id: string, enabled: boolean) => useQuery({ ...getQuery<Page<PostRevision>>(`${POSTS}/${id}/revisions?limit=100`), enabled });

/** The author's or staff's changes to a post: edit, delete, pin. Each refetches the feed, the post and the queue. */
export function usePostChanges() {
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: apiKey(POSTS) }), queryClient.invalidateQueries({ queryKey: apiKey('/api/admin/posts/pending') })]);
  const path = (id: string) => `${POSTS}/${encodeURIComponent(id)}`;
  return {
    edit: useMutation({ mutationFn: ({ id, edit }: { id: string; edit: PostEdit }) => apiRequest<Post>('PATCH', path(id), edit), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: string) => apiRequest<void>('DELETE', path(id)), onSuccess: refresh }),
    pin: useMutation({ mutationFn: ({ id, pinned }: { id: string; pinned: boolean }) => apiRequest<Post>('PUT', `/api/admin/posts/${encodeURIComponent(id)}/pin`, { pinned }), onSuccess: refresh }),
  };
}
