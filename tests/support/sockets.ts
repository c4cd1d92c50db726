/**
 * Socket.IO clients as the site's pages open them, for integration tests: over WebSocket, with a browser's session
 * cookie (or a raw cookie value, or none: a visitor).
 */
import { io, type Socket } from 'socket.io-client';
import { Browser } from './http';

/**
 * A connected socket to `siteUrl` as `session` (a signed-in Browser, a raw `bhc.sid` value, or none: a visitor).
 * `hear` attaches the listeners before the connection, so no notice sent once connected is missed; the socket is
 * added to `opened`, which the test file disconnects in its afterAll. Rejects when the connection is refused.
 */
export async function connectSocket(
  siteUrl: string,
  opened: Socket[],
  session?: Browser | string,
  hear: (socket: Socket) => void = () => undefined,
): Promise<Socket> {
  const cookie = session instanceof Browser ? session.cookie('bhc.sid') : session;
  const socket = io(siteUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: cookie ? { cookie: `bhc.sid=${cookie}` } : {},
  });
  opened.push(socket);
  hear(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
