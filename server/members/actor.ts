import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../shared/domain';
import { membersCollection } from '../../projections/members/members';
import type { ApiDependencies } from '../dependencies';

declare module 'fastify' {
  interface Session {
    memberId?: string;
  }
}

/** The member behind the request's session, read fresh so a role change or suspension applies at once. */
export async function resolveActor(services: Pick<ApiDependencies, 'store'>, request: FastifyRequest): Promise<Actor | null> {
  const memberId = request.session?.memberId;
  if (!memberId) return null;
  return memberActor(services, memberId);
}

export async function memberActor(services: Pick<ApiDependencies, 'store'>, memberId: string): Promise<Actor | null> {
  const member = await membersCollection(services.store).findOne({ _id: memberId });
  if (!member || member.suspended) return null;
  return { id: member._id, role: member.role };
}
