/**
 * Validators for public reads: every public GET answered 200 with a body written in full (JSON, a public page's
 * HTML, the calendar) carries a strong ETag of that body, and a request whose If-None-Match names it is answered
 * 304 without the body. Browsers may keep the answer but ask each time (`public, max-age=0, must-revalidate`);
 * an answer to a signed-in member is theirs alone (`private`). A route that sets its own ETag (RSS, media, the
 * embed loader) or says `no-store` is left as it is, and so are files streamed from disk (their own validators).
 *
 * The tag is of the uncompressed body: @fastify/compress runs after this hook (its onSend is the route's, after
 * the app's), and every tagged answer says `Vary: accept-encoding`, so a cache keeps one copy per encoding under
 * the same tag, which always stands for the same content.
 *
 * Hashing a body costs about as much as reading a cached one, so the last guest's body of each address is kept
 * beside its tag (at most REMEMBERED_BYTES of them): an answer equal to it (a plain comparison of the text) reuses
 * the tag, and only a changed answer is hashed again. A member's answers are hashed each time, not kept.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { noContent, type RouteSchema } from './openapi';

const REMEMBERED_BYTES = 8 * 1024 * 1024;
export const PUBLIC_REVALIDATE = 'public, max-age=0, must-revalidate';
export const PRIVATE_REVALIDATE = 'private, no-cache';

export const etagOf = (body: string | Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** If-None-Match names `etag` (weak comparison, as RFC 9110 asks of it), or is `*`. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//u, '') === etag;
  });
}

function addVary(reply: FastifyReply, header: string) {
  const current = reply.getHeader('vary');
  const values = (Array.isArray(current) ? current : current === undefined ? [] : [String(current)]).flatMap((value) =>
    value.split(',').map((part) => part.trim()),
  );
  if (!values.some((value) => value.toLowerCase() === header)) reply.header('vary', [...values, header].join(', '));
}

export function registerEtags(app: FastifyInstance) {
  const remembered = new Map<string, { body: string | Buffer; etag: string }>();
  let rememberedBytes = 0;
  const forget = (key: string) => {
    const kept = remembered.get(key);
    if (!kept) return;
    remembered.delete(key);
    rememberedBytes -= kept.body.length;
  };
  const guestTagOf = (url: string, body: string | Buffer) => {
    const kept = remembered.get(url);
    if (kept && (typeof body === 'string' ? kept.body === body : Buffer.isBuffer(kept.body) && body.equals(kept.body))) return kept.etag;
    const etag = etagOf(body);
    forget(url);
    if (body.length > REMEMBERED_BYTES / 16) return etag;
    while (rememberedBytes + body.length > REMEMBERED_BYTES) forget(remembered.keys().next().value!);
    remembered.set(url, { body, etag });
    rememberedBytes += body.length;
    return etag;
  };

  // The OpenAPI document names the 304 of every public read that may answer it.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as RouteSchema | undefined;
    const methods = [route.method].flat();
    if (route.config?.access !== 'public' || !methods.includes('GET') || !schema?.response?.[200] || schema.response[304]) return;
    route.schema = {
      ...schema,
      response: { ...schema.response, 304: noContent('Not modified: the ETag sent in If-None-Match is the current one') },
    };
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (request.routeOptions.config.access !== 'public' || reply.hasHeader('etag')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const cacheControl = reply.getHeader('cache-control');
    if (typeof cacheControl === 'string' && /no-store/iu.test(cacheControl)) return payload;

    const member = request.actor !== null;
    const etag = member ? etagOf(payload) : guestTagOf(request.url, payload);
    reply.header('etag', etag);
    if (member)
      reply.header(
        'cache-control',
        cacheControl === undefined
          ? PRIVATE_REVALIDATE
          : /private/iu.test(String(cacheControl))
            ? cacheControl
            : `private, ${String(cacheControl)}`,
      );
    else if (cacheControl === undefined) reply.header('cache-control', PUBLIC_REVALIDATE);
    addVary(reply, 'accept-encoding');
    if (!notModified(request.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  });
}
