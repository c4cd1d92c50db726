/**
 * socket.io on the API's HTTP server. Browsers authenticate with the session
 * cookie; embeds connect anonymously and join only the public room. The Redis
 * Streams adapter shares rooms between API processes and survives Redis
 * reconnects, where the pub/sub adapter drops messages.
 */
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Actor } from '../../shared/domain';
import { HEARTBEAT_MS, type Presence } from './presence';
import type { ChangeNotice } from '../../projections/runner';

export const ROOMS = { public: 'public', members: 'members', staff: 'staff', member: (id: string) => `member:${id}` } as const;

export interface Realtime {
  /** Ends every socket of a member, on every API process (suspension). */
  disconnectMember(memberId: string): Promise<void>;
  /** Sockets connected to this process. */
  socketCount(): number;
  close(): Promise<void>;
}

function socketServer(redis: Redis, prefix: string, httpServer?: HttpServer): Server {
  const options = { path: '/socket.io', adapter: createAdapter(redis, { streamName: `${prefix}:socket.io`, sessionKeyPrefix: `${prefix}:socket.io:session:` }) };
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
    const actor = socket.data.actor as Actor | null;
    void socket.join(ROOMS.public);
    if (!actor) return;
    void socket.join([ROOMS.members, ROOMS.member(actor.id), ...(actor.role === 'admin' || actor.role === 'staff' ? [ROOMS.staff] : [])]);
    const ignore = () => undefined;
    presence.connected(actor.id).catch(ignore);
    socket.on('disconnect', () => presence.disconnected(actor.id).catch(ignore));
  });

  const heartbeat = setInterval(() => {
    const ids = new Set<string>();
    for (const socket of io.sockets.sockets.values()) if (socket.data.actor) ids.add((socket.data.actor as Actor).id);
    void presence.heartbeat([...ids]).catch(() => undefined);
  }, HEARTBEAT_MS);
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
