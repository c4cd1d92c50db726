/** The member the member decider's specs start from: Ada Lovelace, registered on the first day of 2025. */
import type { Role } from '../../shared/domain';
import type { MemberEvent } from '../../shared/members/member-stream';

export const MEMBER_ID = 'member-1';

/** The event that opens the member's stream, with `role` and the time of registration. */
export function memberRegistered(role: Role = 'member', registeredAt = '2025-01-01T00:00:00.000Z'): MemberEvent {
  return {
    type: 'MemberRegistered',
    data: { id: MEMBER_ID, email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role, passwordHash: 'hash-1', registeredAt },
  };
}
