/**
 * How a member is shown beside what they wrote or organise: their name, picture and role. Every read model that shows
 * it keeps its own copy, folded from the member's own events with `bylineChange`, so that no read model reads
 * another's (docs/architecture.md#read-model-ownership).
 */
import type { Role } from '../domain';
import { FORMER_MEMBER } from '../personal-data';
import { displayName } from './display';
import type { MemberEvent } from './member-stream';

export type Byline = { firstName: string; lastName: string; role: Role; profileImageUrl: string | null };

/** What a member event does to their byline; null when it changes nothing of it (a password, an address, a bio). */
export function bylineChange(event: MemberEvent): ((byline: Byline | null) => Byline | null) | null {
  switch (event.type) {
    case 'MemberRegistered': {
      const { firstName, lastName, role } = event.data;
      return () => ({ firstName, lastName, role, profileImageUrl: null });
    }
    case 'MemberProfileChanged': {
      const { firstName, lastName, profileImageUrl } = event.data;
      const shown = { ...(firstName !== undefined ? { firstName } : {}), ...(lastName !== undefined ? { lastName } : {}), ...(profileImageUrl !== undefined ? { profileImageUrl } : {}) };
      return Object.keys(shown).length > 0 ? (byline) => byline && { ...byline, ...shown } : null;
    }
    case 'MemberRoleChanged':
      return (byline) => byline && { ...byline, role: event.data.role };
    case 'MemberErased':
      return () => null;
    default:
      return null;
  }
}

/** The name shown for a byline: "Former member" for a member the read model does not know (erased, or never registered). */
export const bylineName = (byline: Pick<Byline, 'firstName' | 'lastName'> | null) => displayName(byline ?? FORMER_MEMBER);
