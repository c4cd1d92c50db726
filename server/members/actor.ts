import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../shared/domain';
import { membersCollection } from '../../projections/members';
import type { ApiDependencies } from '../dependencies';
import type { AuthCache } from '../http/auth-cache';

declare module 'fastify' {
  interface Session {
    memberId?: string;
    /** When the session's expiry last moved forward (epoch ms). */
    renewedAt?: number;
    /** When the member signed in with this session (epoch ms), and the browser's User-Agent then: for their list of sessions. */
    signedInAt?: number;
    userAgent?: string;
  }
}

/**
 * The member behind the request's session, as this process remembers them (server/http/auth-cache.ts): a role
 * change or suspension makes every process read them afresh, so it applies at once.
 */
export async function resolveActor(
  services: Pick<ApiDependencies, 'store'>,
  request: FastifyRequest,
  cache: AuthCache,
): Promise<Actor | null> {
  const memberId = request.session?.memberId;
  if (!memberId) return null;
  return cache.actor(memberId, () => memberActor(services, memberId));
}

export async function memberActor(services: Pick<ApiDependencies, 'store'>, memberId: string): Promise<Actor | null> {
  const member = await membersCollection(services.store).findOne({ _id: memberId });
  if (!member || member.suspended) return null;
  return { id: member._id, role: member.role };
}
