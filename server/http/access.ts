/**
 * Declarative authorization: every route states who may call it in its config
 * (`config: { access: 'public' | 'signed-in' | ['admin', 'staff'] }`). A route
 * without a declaration refuses to register, so none is open by accident, and
 * `npm run routes` prints the whole table for an audit.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, type Role, fail } from '../../shared/domain';

/** Who may call a route: anyone, any signed-in member, some roles, or some roles or a caller with a bearer token (scrapers). */
export type Access = 'public' | 'signed-in' | readonly Role[] | { roles: readonly Role[]; bearerToken: string | undefined };

export const STAFF: readonly Role[] = ['admin', 'staff'];
export const ADMIN: readonly Role[] = ['admin'];
/** Everyone signed in except subscribers, who may read but not take part. */
export const PARTICIPANTS: readonly Role[] = ['admin', 'staff', 'member'];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Skips the same-origin check of state-changing requests (for RFC 8058 one-click unsubscribe). */
    allowCrossSite?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in, unsuspended member making the request, or null. */
    actor: Actor | null;
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

/** Finds the member behind a request's session; null when signed out, suspended or unknown. */
export type ResolveActor = (request: FastifyRequest) => Promise<Actor | null>;

/**
 * `publicPrefixes`: routes registered by a plugin that cannot declare access (the API reference's pages and
 * assets, from swagger-ui) are public below these paths.
 */
export function registerAccessControl(
  app: FastifyInstance,
  resolveActor: ResolveActor,
  publicPrefixes: readonly string[] = [],
): RouteAccess[] {
  const table: RouteAccess[] = [];
  app.decorateRequest('actor', null);
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD' || route.url.startsWith('/socket.io')) return;
    if (route.config?.access === undefined && publicPrefixes.some((prefix) => route.url.startsWith(prefix)))
      route.config = { ...route.config, access: 'public' };
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access`);
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access });
  });
  // Before validation, so a caller who may not use a route learns nothing from its input rules.
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    request.actor = await resolveActor(request);
    if (access === 'public') return;
    if (typeof access === 'object' && 'bearerToken' in access && hasBearer(request, access.bearerToken)) return;
    if (!request.actor) throw fail.unauthenticated();
    if (access !== 'signed-in' && !rolesOf(access).includes(request.actor.role)) throw fail.forbidden();
  });
  return table;
}

export function rolesOf(access: Exclude<Access, 'public' | 'signed-in'>): readonly Role[] {
  return 'roles' in access ? access.roles : access;
}

function hasBearer(request: FastifyRequest, token: string | undefined): boolean {
  const given = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function describeAccess(access: Access): string {
  if (typeof access === 'string') return access;
  return 'roles' in access ? `${access.roles.join(', ')} or bearer token` : access.join(', ');
}
