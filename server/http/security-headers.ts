/**
 * Headers every response carries: a Content-Security-Policy that lets only our own scripts run, HSTS when the
 * site is served over https, and framing refused everywhere but on the embed pages, which other sites frame.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { isEmbedPath } from '../embeds/paths';

/**
 * The one inline script a page may carry: the theme script (client/public/theme.js), inlined in a visitor's
 * first page so nothing stands before its first paint (server/http/client.ts), allowed by its hash alone.
 * Read from the source, or where there is none (the image holds only the built client) from the build's copy.
 */
const THEME_SCRIPT_FILE = [
  resolve(import.meta.dirname, '../../client/public/theme.js'),
  resolve(import.meta.dirname, '../../dist/client/theme.js'),
].find((file) => existsSync(file));
if (!THEME_SCRIPT_FILE)
  throw new Error('No theme script: neither dist/client/theme.js (npm run build) nor client/public/theme.js is there');
export const THEME_SCRIPT = readFileSync(THEME_SCRIPT_FILE, 'utf8');
export const THEME_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;

/**
 * The policy. Scripts, connections (socket.io included: 'self' covers ws/wss of our own origin) and frames
 * are our own; members' posts show images, audio and video from any web address and YouTube videos through
 * its privacy-enhanced host; inline style attributes stay allowed (the no-JavaScript unsubscribe pages and
 * the captured mail shown to admins use them; they cannot run code).
 */
export function contentSecurityPolicy(frameAncestors: string, scriptSources = "'self'"): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https: http:",
    "media-src 'self' https: http:",
    "frame-src 'self' https://www.youtube-nocookie.com",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const APP_POLICY = contentSecurityPolicy("'none'", `'self' ${THEME_SCRIPT_SOURCE}`);
const EMBED_POLICY = contentSecurityPolicy('*');
/** A year, the value preload lists ask for; sent only when the public address is https. */
const HSTS = 'max-age=31536000; includeSubDomains';

export function registerSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }) {
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (https) reply.header('Strict-Transport-Security', HSTS);
    if (isEmbedPath(request.url)) reply.header('Content-Security-Policy', EMBED_POLICY);
    else {
      reply.header('Content-Security-Policy', APP_POLICY);
      reply.header('X-Frame-Options', 'DENY');
    }
  });
}
