/**
 * One socket.io connection per tab. Change notices from the server invalidate
 * the queries they concern; after a reconnect every active query refetches,
 * since notices may have been missed meanwhile.
 */
import { useEffect } from 'react';
import type { Socket } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';
import type { ClientToServerEvents, ServerToClientEvents, SocketMessage, SocketPayload } from '../../shared/socket-messages';
import { apiKey } from './query-keys';

/** Which cached reads each notice makes stale: every read under these addresses (some depend on what the notice names). */
const INVALIDATES: { [M in SocketMessage]: string[] | ((payload: SocketPayload<M>) => string[]) } = {
  // '/api/members': a profile page lists the member's newest posts and their events.
  'posts:changed': ['/api/posts', '/api/stats', '/api/admin/posts/pending', '/api/admin/stats', '/api/members'],
  'events:changed': ['/api/events', '/api/user/events', '/api/admin/events', '/api/members'],
  'rsvp:changed': ['/api/events', '/api/user/events'],
  'blog:changed': ['/api/blog', '/api/admin/blog'],
  'comments:changed': ({ targetType, targetId }) => [`/api/${targetType === 'post' ? 'posts' : 'blog'}/${targetId}/comments`],
  'pending:changed': [
    '/api/admin/events/stats',
    '/api/admin/events/pending',
    '/api/admin/posts/pending',
    '/api/admin/stats',
    '/api/admin/reports',
  ],
  'reports:changed': ['/api/admin/reports', '/api/admin/stats'],
  'notifications:changed': ['/api/notifications'],
  'bookmarks:changed': ['/api/bookmarks'],
  'stats:changed': ['/api/stats', '/api/admin/stats', '/api/admin/users'],
  'monitoring:changed': ['/api/admin/monitoring'],
  'mailbox:changed': ['/api/admin/mailbox'],
  'subscriptions:changed': ['/api/subscriptions'],
  // The discussions: the category list, the topic lists, an open topic and the unread count all lie below these. A new
  // reply moves its topic in every list and its unread count, so it refetches the lists as well as the topic.
  'categories:changed': ['/api/categories', '/api/topics'],
  'topics:changed': ['/api/topics'],
  'replies:changed': ['/api/topics', '/api/replies'],
};

type NoticeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: Promise<NoticeSocket> | null = null;

/** socket.io-client loads only when a page needs live updates, keeping it off the landing page. */
export function connectSocket(): Promise<NoticeSocket> {
  socket ??= import('socket.io-client').then(({ io }): NoticeSocket => io({ path: '/socket.io', withCredentials: true }));
  return socket;
}

/** Drops the connection so the next one authenticates with the current session. */
export function resetSocket() {
  void socket?.then((connection) => connection.disconnect());
  socket = null;
}

/** Keeps the query cache fresh while `enabled` (signed in, or on a live embed). */
export function useSocketInvalidation(queryClient: QueryClient, sessionKey: string, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    let cleanup = () => {};
    let cancelled = false;
    void connectSocket().then((connection) => {
      if (cancelled) return;
      cleanup = bind(queryClient, connection);
    });
    return () => {
      cancelled = true;
      cleanup();
    };
  }, [queryClient, sessionKey, enabled]);
}

/**
 * A comment thread's address lies below its post's (`/api/posts/{id}/comments`), but the thread follows its own
 * notice, `comments:changed`: a like or a new post elsewhere does not refetch every open thread.
 */
const isThreadBelow = (key: readonly unknown[], address: string) => key.includes('comments') && !address.includes('/comments');

function bind(queryClient: QueryClient, connection: NoticeSocket) {
  const handlers = (Object.keys(INVALIDATES) as SocketMessage[]).map((message) => {
    const handler = (payload: SocketPayload<typeof message>) => {
      const addresses = INVALIDATES[message] as string[] | ((payload: SocketPayload<typeof message>) => string[]);
      for (const address of typeof addresses === 'function' ? addresses(payload) : addresses)
        void queryClient.invalidateQueries({ queryKey: apiKey(address), predicate: (query) => !isThreadBelow(query.queryKey, address) });
    };
    connection.on(message, handler);
    return [message, handler] as const;
  });
  const onReconnect = () => void queryClient.invalidateQueries({ type: 'active' });
  // The server ends a member's sockets when their role changes or they are suspended: connect again, as whoever
  // the session now says (into the new role's rooms, or as a guest), and refetch everything, the user first.
  const onServerDisconnect = (reason: Socket.DisconnectReason) => {
    if (reason !== 'io server disconnect') return;
    connection.connect();
    onReconnect();
  };
  connection.io.on('reconnect', onReconnect);
  connection.on('disconnect', onServerDisconnect);
  return () => {
    for (const [message, handler] of handlers) connection.off(message, handler);
    connection.io.off('reconnect', onReconnect);
    connection.off('disconnect', onServerDisconnect);
  };
}
