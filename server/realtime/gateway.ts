/**
 * socket.io on the API's HTTP server. Browsers authenticate with the session
 * cookie; embeds connect anonymously and join only the public room. The Redis
 * Streams adapter shares rooms between API processes and survives Redis
 * reconnects, where the pub/sub adapter drops messages.
 */
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server, type DefaultEventsMap } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Actor } from '../../shared/domain';
import { HEARTBEAT_MS, type Presence } from './presence';
import type { ChangeNotice } from '../../projections/runner';

export const ROOMS = { public: 'public', members: 'members', staff: 'staff', member: (id: string) => `member:${id}` } as const;

export interface Realtime {
  /** Ends every socket of a member, on every API process (suspension, role change). */
  disconnectMember(memberId: string): Promise<void>;
  /** Sockets connected to this process. */
  socketCount(): number;
  close(): Promise<void>;
}

interface SocketData {
  actor: Actor | null;
}

type SocketServer = Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

function socketServer(redis: Redis, prefix: string, httpServer?: HttpServer): SocketServer {
  const adapter = createAdapter(redis, {
    streamName: `${prefix}:socket.io`,
    // Requests that expect answers (fetchSockets, serverSideEmit) and the server count go over pub/sub on these
    // channels; left at the default, every site sharing the Redis would answer them.
    channelPrefix: `${prefix}:socket.io`,
    sessionKeyPrefix: `${prefix}:socket.io:session:`,
  });
  const options = { path: '/socket.io', adapter };
  return httpServer ? new Server(httpServer, options) : new Server(options);
}

export function attachRealtime(
  httpServer: HttpServer,
  options: { redis: Redis; prefix: string; presence: Presence; authenticate: (cookieHeader: string | undefined) => Promise<Actor | null> },
): Realtime {
  const { presence } = options;
  const io = socketServer(options.redis, options.prefix, httpServer);

  io.use((socket, next) => {
    options.authenticate(socket.handshake.headers.cookie).then(
      (actor) => {
        socket.data.actor = actor;
        next();
      },
      () => next(new Error('Could not read the session')),
    );
  });

  io.on('connection', (socket) => {
    const { actor } = socket.data;
    void socket.join(ROOMS.public);
    if (!actor) return;
    void socket.join([ROOMS.members, ROOMS.member(actor.id), ...(actor.role === 'admin' || actor.role === 'staff' ? [ROOMS.staff] : [])]);
    const ignore = () => undefined;
    presence.connected(actor.id).catch(ignore);
    socket.on('disconnect', () => presence.disconnected(actor.id).catch(ignore));
  });

  const heartbeat = setInterval(() => void presence.heartbeat().catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();

  return {
    async disconnectMember(memberId) {
      io.in(ROOMS.member(memberId)).disconnectSockets(true);
    },
    socketCount: () => io.sockets.sockets.size,
    async close() {
      clearInterval(heartbeat);
      // io.close() would also close fastify's HTTP server, which fastify closes itself.
      io.disconnectSockets(true);
      io.engine.close();
      await io.of('/').adapter.close();
    },
  };
}

/**
 * Sends change notices to browsers from any process, with or without an HTTP
 * server (the projections role): a socket.io server that is never attached,
 * broadcasting through the same Redis stream as the API processes.
 */
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
