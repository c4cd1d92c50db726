/**
 * Change notices to browsers from any process. Every role shares one socket.io
 * Redis Streams adapter configuration: the API processes attach it to their HTTP
 * server (server/realtime/gateway.ts); the projections and workers roles publish
 * through a socket.io server that is never attached, over the same Redis stream.
 * The Streams adapter survives Redis reconnects, where the pub/sub adapter drops messages.
 */
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { ChangeNotice, ClientToServerEvents, ServerToClientEvents } from '../../shared/socket-messages';

/** socket.io servers of this site: typed by the shared contract, and by what the gateway keeps per socket. */
export type SocketServer<SocketData = unknown> = Server<ClientToServerEvents, ServerToClientEvents, Record<never, never>, SocketData>;

export function socketServer<SocketData = unknown>(redis: Redis, prefix: string, httpServer?: HttpServer): SocketServer<SocketData> {
  const adapter = createAdapter(redis, {
    streamName: `${prefix}:socket.io`,
    // Requests that expect answers (fetchSockets, serverSideEmit) and the server count go over pub/sub on these
    // channels; left at the default, every site sharing the Redis would answer them.
    channelPrefix: `${prefix}:socket.io`,
    sessionKeyPrefix: `${prefix}:socket.io:session:`,
    // The adapter's reader of the stream stops only when its blocking read returns: a process that closes (a command
    // line tool such as projections:status, done in a second) stayed up this long after (5 s by default, and more).
    blockTimeInMs: 1_000,
  });
  const options = { path: '/socket.io', adapter };
  return httpServer ? new Server(httpServer, options) : new Server(options);
}

export function createNoticePublisher(redis: Redis, prefix: string) {
  const io = socketServer(redis, prefix);
  return {
    publish(notice: ChangeNotice) {
      io.to([...notice.rooms]).emit(notice.message, notice.payload);
    },
    // Never attached, so there is no engine or HTTP server to close: only the adapter's Redis readers.
    close: async () => io.of('/').adapter.close(),
  };
}
