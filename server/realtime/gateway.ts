/**
 * socket.io on the API's HTTP server. Browsers authenticate with the session
 * cookie; embeds connect anonymously and join only the public room. The Redis
 * Streams adapter (platform/realtime/notices.ts) shares rooms between processes.
 */
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import type { Actor } from '../../shared/domain';
import { ROOMS } from '../../shared/socket-messages';
import { HEARTBEAT_MS, type Presence } from './presence';
import { socketServer } from '../../platform/realtime/notices';

export interface Realtime {
  /** Ends every socket of a member, on every API process (suspension, role change). */
  disconnectMember(memberId: string): Promise<void>;
  /** Sockets connected to this process. */
  socketCount(): number;
  close(): Promise<void>;
}

/** Who the socket's session belongs to, read once at the handshake; null for anonymous sockets (widgets). */
interface SocketData {
  actor: Actor | null;
}

export function attachRealtime(
  httpServer: HttpServer,
  /** `origin`: the site's own (PUBLIC_URL's); a browser's handshake from any other page is refused. */
  options: {
    redis: Redis;
    prefix: string;
    origin: string;
    presence: Presence;
    authenticate: (cookieHeader: string | undefined) => Promise<Actor | null>;
  },
): Realtime {
  const { presence } = options;
  const io = socketServer<SocketData>(options.redis, options.prefix, httpServer);

  // Another site's page could otherwise open a socket with the member's cookie and hear their notices (cross-site
  // WebSocket hijacking). Browsers always send Origin; a client without one (a script, a test) is no browser to abuse.
  io.use((socket, next) => {
    const origin = socket.handshake.headers.origin;
    if (origin !== undefined && origin !== options.origin) next(new Error('This connection must come from the site itself'));
    else next();
  });
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
