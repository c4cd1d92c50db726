/**
 * socket.io on the HTTP server of the realtime role: the API's own when one process runs both (the default), or
 * the realtime process's (server/realtime/server.ts) when the fan-out runs apart from the API. Browsers
 * authenticate with the session cookie; embeds connect anonymously and join only the public room. The Redis
 * Streams adapter (platform/realtime/notices.ts) shares rooms between processes.
 *
 * A notice is encoded once per broadcast, WebSocket frame included (socket.io-adapter's pre-encoded frame, no
 * per-message compression): what is left per socket is its write to the connection, one system call each. The
 * notices one turn of the event loop delivers (several read from the stream at once, after a busy moment) leave
 * in one write per connection (coalesceWrites), so a backlog costs fewer system calls per notice than steady
 * traffic instead of more.
 */
import type { Server as HttpServer } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import type { Redis } from 'ioredis';
import type { Actor } from '../../shared/domain';
import { ROOMS } from '../../shared/socket-messages';
import { HEARTBEAT_MS, type Presence } from './presence';
import { socketServer, type SocketServer } from '../../platform/realtime/notices';

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
  coalesceWrites(io);

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

/**
 * The api role without the realtime role (ROLES=api, sockets served by realtime processes): no socket here, but a
 * member's sockets are still ended on every realtime process, through the same Redis stream.
 */
export function detachedRealtime(options: { redis: Redis; prefix: string }): Realtime {
  const io = socketServer(options.redis, options.prefix);
  return {
    async disconnectMember(memberId) {
      io.in(ROOMS.member(memberId)).disconnectSockets(true);
    },
    socketCount: () => 0,
    close: async () => io.of('/').adapter.close(),
  };
}

/** What coalesceWrites reaches of engine.io's connection under a socket.io socket (public in its code). */
interface EngineConnection {
  readyState: string;
  transport: { name: string; writable: boolean; socket?: { _socket?: NetSocket } };
  /** Hands the packets waiting in its buffer to the transport, if it is writable (private in engine.io's types). */
  flush(): void;
}

/**
 * A turn of the event loop may deliver several notices (read from the stream together after a busy moment); each
 * reaches every connection, and each write to a connection is a system call. So that a turn costs one write per
 * connection however many notices it delivers:
 * - a WebSocket connection a broadcast reaches is held until the turn ends (its transport marked not writable, so
 *   engine.io keeps the notices in its buffer), then released: engine.io hands the buffer to the transport at once;
 * - while engine.io hands a buffer to a WebSocket, its connection is corked (engine.io's server emits "flush" just
 *   before and "drain" just after, in the same call), so the buffer's frames leave in one write, not one each.
 * A notice alone in its turn leaves as soon as the turn ends (no timer, no added wait).
 */
export function coalesceWrites<Data>(io: SocketServer<Data>) {
  // apply (every socket a broadcast reaches) is private in socket.io-adapter's types, public in its code.
  type Apply = (opts: unknown, callback: (socket: { conn: unknown }) => void) => void;
  const adapter = io.of('/').adapter as unknown as { apply: Apply };
  const apply: Apply = adapter.apply.bind(adapter);
  const held: { connection: EngineConnection; transport: EngineConnection['transport'] }[] = [];
  const release = () => {
    for (const { connection, transport } of held.splice(0)) {
      transport.writable = true;
      if (connection.transport === transport) connection.flush();
    }
  };
  adapter.apply = (opts, callback) =>
    apply(opts, (socket) => {
      const connection = socket.conn as EngineConnection;
      const { transport } = connection;
      if (transport.name === 'websocket' && transport.writable && connection.readyState === 'open') {
        if (held.length === 0) setImmediate(release);
        transport.writable = false;
        held.push({ connection, transport });
      }
      callback(socket);
    });
  const corked = new Set<NetSocket>();
  const tcpOf = (connection: EngineConnection) =>
    connection.transport.name === 'websocket' ? connection.transport.socket?._socket : undefined;
  io.engine.on('flush', (connection: EngineConnection) => {
    const tcp = tcpOf(connection);
    if (tcp && !tcp.destroyed) {
      tcp.cork();
      corked.add(tcp);
    }
  });
  io.engine.on('drain', (connection: EngineConnection) => {
    const tcp = tcpOf(connection);
    if (tcp && corked.delete(tcp)) tcp.uncork();
  });
}
