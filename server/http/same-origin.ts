/**
 * CSRF defence for the cookie-authenticated JSON API: a state-changing request
 * must be JSON (which a cross-site form cannot send without a CORS preflight we
 * never grant) or come from the site's own origin.
 */
import type { FastifyInstance } from 'fastify';
import { fail } from '../../shared/domain';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerSameOriginCheck(app: FastifyInstance, publicUrl: string) {
  const siteOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.allowCrossSite) return;
    if ((request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json') return;
    // Only PUBLIC_URL's origin counts: the Host header is the caller's to choose.
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin === siteOrigin) return;
    throw fail.forbidden('Cross-site request refused');
  });
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
