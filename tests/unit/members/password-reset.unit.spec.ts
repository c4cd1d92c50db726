/** The member decider's password reset (docs/domain/members.md#password-reset): given / when / then. */
import { describe, it } from 'vitest';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { type MemberEvent, memberDecider, RESET_LINK_SPENT } from '../../../shared/members/member-stream';
import { deciderSpec } from '../../support/decider-spec';
import { MEMBER_ID, memberRegistered } from '../../support/member-events';

const spec = deciderSpec(memberDecider);
const now = new Date('2025-03-01T10:00:00.000Z');
const self: Actor = { id: MEMBER_ID, role: 'member' };
const at = (minutes: number): CommandMetadata['now'] => new Date(now.getTime() + minutes * 60_000);
const registered = memberRegistered();
const requested = (resetId: string): MemberEvent => ({
  type: 'MemberPasswordResetRequested',
  data: { resetId, requestedAt: now.toISOString(), expiresAt: at(60).toISOString() },
});
const reset = (resetId: string, minutes: number) => ({
  type: 'ResetPassword' as const,
  data: { resetId, passwordHash: 'hash-2' },
  metadata: { now: at(minutes), actor: self },
});

describe('RequestPasswordReset', () => {
  it('is asked for signed out, and expires 60 minutes later', () => {
    spec
      .given([registered])
      .when({ type: 'RequestPasswordReset', data: { resetId: 'r1' }, metadata: { now, actor: null } })
      .then([requested('r1')]);
  });
  it('is refused to a suspended account and an unknown one', () => {
    spec
      .given([registered, { type: 'MemberSuspended', data: { by: 'admin-1', at: now.toISOString() } }])
      .when({ type: 'RequestPasswordReset', data: { resetId: 'r1' }, metadata: { now, actor: null } })
      .thenThrows('forbidden');
    spec
      .given([])
      .when({ type: 'RequestPasswordReset', data: { resetId: 'r1' }, metadata: { now, actor: null } })
      .thenThrows('not_found');
  });
});

describe('ResetPassword', () => {
  it('sets the new password within the hour', () => {
    spec
      .given([registered, requested('r1')])
      .when(reset('r1', 59))
      .then([{ type: 'MemberPasswordReset', data: { resetId: 'r1', passwordHash: 'hash-2', resetAt: at(59).toISOString() } }]);
  });
  it('is refused once the hour is over', () => {
    spec
      .given([registered, requested('r1')])
      .when(reset('r1', 60))
      .thenThrows('not_found', RESET_LINK_SPENT);
  });
  it('works once, and a reset ends every other pending one', () => {
    const used: MemberEvent = { type: 'MemberPasswordReset', data: { resetId: 'r2', passwordHash: 'hash-2', resetAt: now.toISOString() } };
    spec
      .given([registered, requested('r1'), requested('r2'), used])
      .when(reset('r2', 1))
      .thenThrows('not_found', RESET_LINK_SPENT);
    spec
      .given([registered, requested('r1'), requested('r2'), used])
      .when(reset('r1', 1))
      .thenThrows('not_found', RESET_LINK_SPENT);
  });
  it('is ended by a password change or a new address', () => {
    spec
      .given([
        registered,
        requested('r1'),
        { type: 'MemberPasswordChanged', data: { passwordHash: 'hash-3', changedAt: now.toISOString() } },
      ])
      .when(reset('r1', 1))
      .thenThrows('not_found');
    spec
      .given([
        registered,
        requested('r1'),
        { type: 'MemberEmailChanged', data: { email: 'new@example.org', changedAt: now.toISOString() } },
      ])
      .when(reset('r1', 1))
      .thenThrows('not_found');
  });
  it('knows no reset it was not asked for, and none of an erased account', () => {
    spec.given([registered]).when(reset('r1', 1)).thenThrows('not_found', RESET_LINK_SPENT);
    spec
      .given([registered, requested('r1'), { type: 'MemberErased', data: { content: 'kept', at: now.toISOString() } }])
      .when(reset('r1', 1))
      .thenThrows('not_found');
  });
});
