/**
 * The discussions' calls (docs/domain/discussions.md), with the hooks the pages use. Every read is keyed by its operation,
 * so the socket's notices (client/lib/socket.ts) refetch the lists, the open topic and the sidebar's unread count.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { answer, api } from '../../lib/api';
import { usePages } from '../../lib/paged-list';
import { apiQuery, operationKey, type GetAnswer } from '../../lib/query-keys';

export type Category = GetAnswer<'/api/categories'>[number];
export type TopicRow = GetAnswer<'/api/topics'>['items'][number];
export type TopicView = GetAnswer<'/api/topics/{id}'>;
export type Topic = TopicView['topic'];
export type Reply = TopicView['replies']['items'][number];
export type ReplyRevision = GetAnswer<'/api/replies/{id}/revisions'>[number];
export type WatchLevel = 'watching' | 'normal' | 'muted';

export const useCategories = () => useQuery(apiQuery('/api/categories'));

export interface TopicFilters {
  category?: string | undefined;
  tag?: string | undefined;
  q?: string | undefined;
}

/** The topic list as the reader filters it, page by page. */
export const useTopics = (filters: TopicFilters) =>
  usePages(
    '/api/topics',
    { params: { query: { category: filters.category, tag: filters.tag, q: filters.q || undefined } } },
    { keepPrevious: true },
  );

/** How many replies the member has not read, over every topic: the sidebar's badge. */
export const useUnreadTopics = () => useQuery({ ...apiQuery('/api/topics/unread'), select: (answer) => answer.count });

/** One topic with its replies, oldest first, a page at a time (the topic itself comes with every page). */
export function useTopic(id: string) {
  const list = useInfiniteQuery({
    queryKey: [...operationKey('/api/topics/{id}', { path: { id } }), 'pages'],
    queryFn: ({ pageParam }) =>
      answer(api.GET('/api/topics/{id}', { params: { path: { id }, query: pageParam ? { cursor: pageParam } : {} } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.replies.nextCursor,
  });
  const replies = useMemo(() => list.data?.pages.flatMap((page) => page.replies.items) ?? [], [list.data]);
  const topic = list.data?.pages[0]?.topic;
  return { list, topic, replies };
}

export const useReplyRevisions = (id: string, enabled: boolean) =>
  useQuery({ ...apiQuery('/api/replies/{id}/revisions', { params: { path: { id } } }), enabled });

/** After one of the reader's own changes: the lists, the topic and the counts. */
function useRefreshDiscussions() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: operationKey('/api/topics') }),
      queryClient.invalidateQueries({ queryKey: operationKey('/api/categories') }),
    ]);
}

export interface NewTopic {
  title: string;
  content: string;
  categoryId: string;
  tags?: string[];
}

export function useStartTopic() {
  const refresh = useRefreshDiscussions();
  return useMutation({ mutationFn: (body: NewTopic) => answer(api.POST('/api/topics', { body })), onSuccess: refresh });
}

export function useReplyCommands(topicId: string) {
  const refresh = useRefreshDiscussions();
  const reply = (id: string) => ({ params: { path: { id } } });
  return {
    write: useMutation({
      mutationFn: (body: { content: string; replyTo?: string }) =>
        answer(api.POST('/api/topics/{id}/replies', { params: { path: { id: topicId } }, body })),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: ({ id, content }: { id: string; content: string }) =>
        answer(api.PATCH('/api/replies/{id}', { ...reply(id), body: { content } })),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => answer(api.DELETE('/api/replies/{id}', reply(id))),
      onSuccess: refresh,
    }),
    report: useMutation({
      mutationFn: ({ id, reason }: { id: string; reason?: string | undefined }) =>
        answer(api.POST('/api/replies/{id}/report', { ...reply(id), body: reason ? { reason } : {} })),
    }),
  };
}

export function useTopicCommands(topicId: string) {
  const refresh = useRefreshDiscussions();
  const topic = { params: { path: { id: topicId } } };
  return {
    read: useMutation({
      mutationFn: (upTo: string) => answer(api.PUT('/api/topics/{id}/read', { ...topic, body: { upTo } })),
      onSuccess: refresh,
    }),
    watch: useMutation({
      mutationFn: (level: WatchLevel) => answer(api.PUT('/api/topics/{id}/watch', { ...topic, body: { level } })),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (content: string) => answer(api.PATCH('/api/topics/{id}', { ...topic, body: { content } })),
      onSuccess: refresh,
    }),
    moderate: useMutation({
      mutationFn: (body: { pinned?: boolean; locked?: boolean; categoryId?: string }) =>
        answer(api.PUT('/api/admin/topics/{id}', { ...topic, body })),
      onSuccess: refresh,
    }),
    report: useMutation({
      mutationFn: (reason: string | undefined) => answer(api.POST('/api/topics/{id}/report', { ...topic, body: reason ? { reason } : {} })),
    }),
  };
}

export interface CategoryFields {
  name: string;
  description: string;
  color: string;
}

export function useCategoryCommands() {
  const refresh = useRefreshDiscussions();
  return {
    create: useMutation({
      mutationFn: (body: CategoryFields) => answer(api.POST('/api/admin/categories', { body })),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: CategoryFields & { id: string }) =>
        answer(api.PATCH('/api/admin/categories/{id}', { params: { path: { id } }, body })),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => answer(api.DELETE('/api/admin/categories/{id}', { params: { path: { id } } })),
      onSuccess: refresh,
    }),
  };
}
