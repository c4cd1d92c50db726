/**
 * One socket.io connection per tab. Change notices from the server invalidate
 * the queries they concern; after a reconnect every active query refetches,
 * since notices may have been missed meanwhile.
 */
import { useEffect } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { QueryClient } from '@tanstack/react-query';

/** Which cached queries each notice makes stale, by the first part of their key. */
const INVALIDATES: Record<string, string[]> = {
  'posts:changed': ['/api/posts', '/api/stats', '/api/admin/posts/pending', '/api/admin/stats'],
  'events:changed': ['/api/events', '/api/user/events', '/api/admin/events', '/api/admin/events/stats', '/api/admin/events/pending', '/api/admin/events/featured'],
  'rsvp:changed': ['/api/events', '/api/user/events'],
  'blog:changed': ['/api/blog', '/api/admin/blog'],
  'pending:changed': ['/api/admin/events/stats', '/api/admin/events/pending', '/api/admin/posts/pending', '/api/admin/stats'],
  'stats:changed': ['/api/stats', '/api/admin/stats', '/api/admin/users'],
};

let socket: Socket | null = null;

export function connectSocket(): Socket {
  socket ??= io({ path: '/socket.io', withCredentials: true });
  return socket;
}

/** Drops the connection so the next one authenticates with the current session. */
export function resetSocket() {
  socket?.disconnect();
  socket = null;
}

export function useSocketInvalidation(queryClient: QueryClient, sessionKey: string) {
  useEffect(() => {
    const connection = connectSocket();
    const stale = (prefixes: string[]) =>
      void queryClient.invalidateQueries({ predicate: (query) => prefixes.some((prefix) => String(query.queryKey[0] ?? '').startsWith(prefix)) });
    const handlers = Object.entries(INVALIDATES).map(([message, prefixes]) => {
      const handler = () => stale(prefixes);
      connection.on(message, handler);
      return [message, handler] as const;
    });
    const onReconnect = () => void queryClient.invalidateQueries({ type: 'active' });
    connection.io.on('reconnect', onReconnect);
    return () => {
      for (const [message, handler] of handlers) connection.off(message, handler);
      connection.io.off('reconnect', onReconnect);
    };
  }, [queryClient, sessionKey]);
}
