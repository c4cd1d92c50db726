/**
 * A request refused while its body is still arriving (a stranger's upload answered 401, an upload declared larger
 * than the route takes answered 413, a file refused the moment it passes the limit): the answer goes out at once with
 * `Connection: close`, and the connection closes by a lingering close: our side ends after the answer, whatever else
 * the client sends is read and dropped for at most LINGER_MS (so that a client still sending gets to read the answer,
 * rather than a reset that can wipe it out), and then the connection goes. Without this Node reads a refused body to
 * its end and keeps the connection for the next request, as long as the client goes on sending
 * (docs/guarantees.md#links-sockets-and-transport).
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused body may go on arriving after its answer, before its connection is closed. */
export const LINGER_MS = 2_000;

/** Whether the request's body has not all arrived: it had one (a length, or chunked), and Node has not read its end. */
function bodyStillArriving(request: FastifyRequest): boolean {
  const { headers, raw } = request;
  const hasBody =
    (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
  // `complete` is Node's own (false until the body's end is read); an injected request (light-my-request) has none.
  return hasBody && raw.complete === false;
}

/**
 * Node closes a `Connection: close` answer's socket with `destroySoon` once the answer is written: at once, while
 * the client's bytes still arrive, which resets the connection and can lose the answer on the client's side. This
 * socket closes gently instead: it ends (the answer, then our FIN), reads and drops what still comes, and is
 * destroyed when the client ends too or after LINGER_MS.
 */
function closeLingering(socket: Socket) {
  (socket as Socket & { destroySoon: () => void }).destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    socket.end();
    socket.resume();
  };
}

export function registerRefusedBodies(app: FastifyInstance) {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (reply.statusCode < 400 || !bodyStillArriving(request)) return payload;
    reply.header('connection', 'close');
    if (request.raw.socket) closeLingering(request.raw.socket);
    return payload;
  });
}
