/** The newsfeed's calls (docs/domain/feed.md), with the hooks its pages use. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewPost, Post, PostEdit, PostRevision } from '../../../shared/feed/schemas';
import { ApiError, answer, api, uploadMedia } from '../../lib/api';
import { fetchEveryPage, usePages } from '../../lib/paged-list';
import { apiQuery, operationKey } from '../../lib/query-keys';

export type FeedFilter = 'all' | 'trending' | 'following';
export type { Post, PostRevision };

/** Staff see who is online beside each author: only those members, not the whole member list. */
const ONLINE_MEMBERS = { params: { query: { online: 'true', limit: '100' } } } as const;

/** The feed as the reader filters and searches it, page by page. */
export const useFeed = (filter: FeedFilter, q: string) => usePages('/api/posts', { params: { query: { filter, q: q || undefined } } });
/** How many posts a filter chip holds (up to a page of 100). */
export const useFilterCount = (filter: FeedFilter) =>
  useQuery({ ...apiQuery('/api/posts', { params: { query: { filter, limit: '100' } } }), select: (page) => page.items.length });
export const useCommunityStats = () => useQuery(apiQuery('/api/stats'));
export const useOnlineMembers = (enabled: boolean) =>
  useQuery({
    queryKey: operationKey('/api/admin/users', ONLINE_MEMBERS.params),
    queryFn: () => fetchEveryPage('/api/admin/users', ONLINE_MEMBERS),
    enabled,
    select: (rows) => new Set(rows.filter((row) => row.status === 'online').map((row) => row.id)),
  });

/** Every read of the feed, refetched after one of the reader's own changes. */
export function useRefreshFeed() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: operationKey('/api/posts') });
}

export function useSubmitPost() {
  const refresh = useRefreshFeed();
  return useMutation({ mutationFn: (post: NewPost) => answer(api.POST('/api/posts', { body: post })), onSuccess: refresh });
}

/** Uploads a photo or audio file for a post (docs/domain/media.md#uploading); the post then names it by `mediaId`. */
export function useUploadMedia() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return uploadMedia(form);
    },
  });
}

/** What a reader does to a post from its card. */
export type PostAction = 'like' | 'unlike' | 'share' | 'report';
function runPostAction(id: string, action: PostAction, reason: string | undefined) {
  const params = { path: { id } };
  switch (action) {
    case 'like':
      return answer(api.PUT('/api/posts/{id}/like', { params }));
    case 'unlike':
      return answer(api.DELETE('/api/posts/{id}/like', { params }));
    case 'share':
      return answer(api.POST('/api/posts/{id}/share', { params }));
    case 'report':
      return answer(api.POST('/api/posts/{id}/report', { params, body: reason ? { reason } : {} }));
  }
}

export function usePostAction() {
  const refresh = useRefreshFeed();
  return useMutation({
    // A report may say why (`reason`, shown to staff only).
    mutationFn: ({ post, action, reason }: { post: Pick<Post, 'id'>; action: PostAction; reason?: string | undefined }) =>
      runPostAction(post.id, action, reason),
    onSuccess: refresh,
  });
}

/** One post as the feed shows it (/posts/{id}); `null` when there is no such post the reader may see. */
export const usePost = (id: string) =>
  useQuery({
    queryKey: operationKey('/api/posts/{id}', { path: { id } }),
    queryFn: () =>
      answer(api.GET('/api/posts/{id}', { params: { path: { id } } })).catch((error: unknown) =>
        error instanceof ApiError && (error.status === 404 || error.status === 400) ? null : Promise.reject(error),
      ),
  });

/** A post's texts, newest first (its author and staff). */
export const usePostRevisions = (id: string, enabled: boolean) =>
  useQuery({ ...apiQuery('/api/posts/{id}/revisions', { params: { path: { id }, query: { limit: '100' } } }), enabled });

/** The author's or staff's changes to a post: edit, delete, pin. Each refetches the feed, the post and the queue. */
export function usePostChanges() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all(
      [operationKey('/api/posts'), operationKey('/api/admin/posts/pending')].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  const params = (id: string) => ({ path: { id } });
  return {
    edit: useMutation({
      mutationFn: ({ id, edit }: { id: string; edit: PostEdit }) =>
        answer(api.PATCH('/api/posts/{id}', { params: params(id), body: edit })),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => answer(api.DELETE('/api/posts/{id}', { params: params(id) })), onSuccess: refresh }),
    pin: useMutation({
      mutationFn: ({ id, pinned }: { id: string; pinned: boolean }) =>
        answer(api.PUT('/api/admin/posts/{id}/pin', { params: params(id), body: { pinned } })),
      onSuccess: refresh,
    }),
  };
}
