import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Actor, CommandMetadata, Role } from '../../../shared/domain';
import { type MemberEvent, memberDecider } from '../../../shared/members/member-stream';
import { LoginSchema, MagicLinkSchema, RegisterSchema, RoleChangeSchema } from '../../../shared/members/schemas';
import { displayName, initials } from '../../../shared/members/display';
import { deciderSpec } from '../../support/decider-spec';
import { MEMBER_ID, memberRegistered as registered } from '../../support/member-events';

const spec = deciderSpec(memberDecider);
const now = new Date('2025-03-01T10:00:00.000Z');
const at = now.toISOString();
const admin: Actor = { id: 'admin-1', role: 'admin' };
const staff: Actor = { id: 'staff-1', role: 'staff' };
const self: Actor = { id: MEMBER_ID, role: 'member' };
const other: Actor = { id: 'member-2', role: 'member' };
const by = (actor: Actor | null): CommandMetadata => ({ now, actor });

const suspended: MemberEvent = { type: 'MemberSuspended', data: { by: admin.id, at } };

describe('RegisterMember', () => {
  const register = (isFirstMember: boolean) => ({
    type: 'RegisterMember' as const,
    data: { id: MEMBER_ID, email: '  Ada@Example.ORG ', firstName: 'Ada', lastName: 'Lovelace', passwordHash: 'hash-1', isFirstMember },
    metadata: by(null),
  });

  it('registers a later account as a member, with the e-mail lowercased', () => {
    spec
      .given([])
      .when(register(false))
      .then([registered('member', at)]);
  });

  it('makes the first account ever an admin', () => {
    spec
      .given([])
      .when(register(true))
      .then([registered('admin', at)]);
  });

  it('registers an account without a password (sign-in by e-mailed link only)', () => {
    const { passwordHash: _, ...data } = register(false).data;
    const events = memberDecider.decide({ ...register(false), data }, memberDecider.initialState());
    expect(events[0]?.data).not.toHaveProperty('passwordHash');
  });

  it('refuses a second registration of the same member', () => {
    spec
      .given([registered()])
      .when(register(false))
      .thenThrows('conflict', 'An account with this e-mail address already exists. Sign in instead.');
  });
});

describe('ChangeProfile', () => {
  it('lets members change their own name, recording only what changed', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangeProfile', data: { firstName: 'Augusta Ada', lastName: 'Lovelace' }, metadata: by(self) })
      .then([{ type: 'MemberProfileChanged', data: { firstName: 'Augusta Ada' } }]);
  });

  it('lets an admin change anyone’s profile', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangeProfile', data: { profileImageUrl: 'https://img.example.org/ada.png' }, metadata: by(admin) })
      .then([{ type: 'MemberProfileChanged', data: { profileImageUrl: 'https://img.example.org/ada.png' } }]);
  });

  it('is a no-op when nothing changes', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangeProfile', data: { firstName: 'Ada' }, metadata: by(self) })
      .then([]);
  });

  it('refuses other members and staff', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangeProfile', data: { firstName: 'X' }, metadata: by(other) })
      .thenThrows('forbidden', 'You can only change your own profile');
    spec
      .given([registered()])
      .when({ type: 'ChangeProfile', data: { firstName: 'X' }, metadata: by(staff) })
      .thenThrows('forbidden', 'You can only change your own profile');
  });

  it('needs a signed-in actor', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangeProfile', data: { firstName: 'X' }, metadata: by(null) })
      .thenThrows('unauthenticated', 'Not signed in');
  });

  it('is not found for an unknown member', () => {
    spec
      .given([])
      .when({ type: 'ChangeProfile', data: { firstName: 'X' }, metadata: by(admin) })
      .thenThrows('not_found', 'Member not found');
  });
});

describe('ChangePassword', () => {
  it('records the new hash for the member themselves', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangePassword', data: { passwordHash: 'hash-2' }, metadata: by(self) })
      .then([{ type: 'MemberPasswordChanged', data: { passwordHash: 'hash-2', changedAt: at } }]);
  });

  it('refuses anyone else, admins included', () => {
    spec
      .given([registered()])
      .when({ type: 'ChangePassword', data: { passwordHash: 'hash-2' }, metadata: by(admin) })
      .thenThrows('forbidden', 'You can only change your own password');
  });
});

describe('ChangeRole', () => {
  const changeRole = (role: Role, actor: Actor | null, adminCount = 2) => ({
    type: 'ChangeRole' as const,
    data: { role, adminCount },
    metadata: by(actor),
  });

  it('lets an admin promote a member to staff', () => {
    spec
      .given([registered()])
      .when(changeRole('staff', admin))
      .then([{ type: 'MemberRoleChanged', data: { role: 'staff', previousRole: 'member', changedBy: admin.id, changedAt: at } }]);
  });

  it('lets an admin demote another admin while others remain', () => {
    spec
      .given([registered('admin')])
      .when(changeRole('member', admin, 2))
      .then([{ type: 'MemberRoleChanged', data: { role: 'member', previousRole: 'admin', changedBy: admin.id, changedAt: at } }]);
  });

  it('refuses to demote the last admin', () => {
    spec
      .given([registered('admin')])
      .when(changeRole('staff', { id: MEMBER_ID, role: 'admin' }, 1))
      .thenThrows('rule', 'The last admin cannot be demoted. Make another member admin first.');
  });

  it('lets a suspended admin be demoted: they are not among the active admins counted', () => {
    spec
      .given([registered('admin'), suspended])
      .when(changeRole('member', admin, 1))
      .then([{ type: 'MemberRoleChanged', data: { role: 'member', previousRole: 'admin', changedBy: admin.id, changedAt: at } }]);
  });

  it('is a no-op when the role is already the one asked for', () => {
    spec
      .given([registered('staff')])
      .when(changeRole('staff', admin))
      .then([]);
  });

  it('refuses staff and members', () => {
    spec.given([registered()]).when(changeRole('staff', staff)).thenThrows('forbidden', 'Only admins can change roles');
    spec.given([registered()]).when(changeRole('admin', self)).thenThrows('forbidden', 'Only admins can change roles');
  });

  it('is not found for an unknown member', () => {
    spec.given([]).when(changeRole('staff', admin)).thenThrows('not_found', 'Member not found');
  });
});

describe('SuspendMember', () => {
  const suspend = (actor: Actor | null, reason?: string) => ({
    type: 'SuspendMember' as const,
    data: reason ? { reason } : {},
    metadata: by(actor),
  });

  it('lets staff suspend a member, with a reason', () => {
    spec
      .given([registered()])
      .when(suspend(staff, 'Spam'))
      .then([{ type: 'MemberSuspended', data: { by: staff.id, reason: 'Spam', at } }]);
  });

  it('lets an admin suspend another admin', () => {
    spec
      .given([registered('admin')])
      .when(suspend(admin))
      .then([{ type: 'MemberSuspended', data: { by: admin.id, at } }]);
  });

  it('is a no-op for a member already suspended', () => {
    spec.given([registered(), suspended]).when(suspend(staff)).then([]);
  });

  it('refuses staff suspending an admin', () => {
    spec
      .given([registered('admin')])
      .when(suspend(staff))
      .thenThrows('forbidden', 'Staff cannot suspend an admin');
  });

  it('refuses members and subscribers', () => {
    spec.given([registered()]).when(suspend(other)).thenThrows('forbidden', 'Only admins and staff can suspend members');
    spec
      .given([registered()])
      .when(suspend({ id: 'sub-1', role: 'subscriber' }))
      .thenThrows('forbidden', 'Only admins and staff can suspend members');
  });

  it('refuses suspending yourself', () => {
    spec
      .given([registered('admin')])
      .when(suspend({ id: MEMBER_ID, role: 'admin' }))
      .thenThrows('rule', 'You cannot suspend yourself');
  });
});

describe('UnsuspendMember', () => {
  const unsuspend = (actor: Actor) => ({ type: 'UnsuspendMember' as const, data: {}, metadata: by(actor) });

  it('lets staff lift a suspension', () => {
    spec
      .given([registered(), suspended])
      .when(unsuspend(staff))
      .then([{ type: 'MemberUnsuspended', data: { by: staff.id, at } }]);
  });

  it('is a no-op for a member not suspended', () => {
    spec.given([registered()]).when(unsuspend(admin)).then([]);
  });

  it('refuses staff lifting an admin’s suspension', () => {
    spec
      .given([registered('admin'), suspended])
      .when(unsuspend(staff))
      .thenThrows('forbidden', 'Staff cannot unsuspend an admin');
  });

  it('refuses members', () => {
    spec.given([registered(), suspended]).when(unsuspend(other)).thenThrows('forbidden', 'Only admins and staff can unsuspend members');
  });
});

describe('member schemas', () => {
  /** The message the API answers with: the first one. */
  const issues = (schema: v.GenericSchema, input: unknown) =>
    v
      .safeParse(schema, input)
      .issues?.slice(0, 1)
      .map((issue) => issue.message) ?? [];
  const valid = { email: ' Ada@Example.org ', password: 'correct horse', firstName: ' Ada ', lastName: 'Lovelace' };

  it('parses a registration, trimming names and lowercasing the e-mail', () => {
    expect(v.parse(RegisterSchema, valid)).toEqual({
      email: 'ada@example.org',
      password: 'correct horse',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
  });

  it('explains what is wrong in words a person understands', () => {
    expect(issues(RegisterSchema, { ...valid, password: 'short' })).toEqual(['Password must be at least 10 characters']);
    expect(issues(RegisterSchema, { ...valid, password: 'x'.repeat(201) })).toEqual(['Password must be at most 200 characters']);
    expect(issues(RegisterSchema, { ...valid, email: 'not-an-address' })).toEqual(['Enter a valid email address']);
    expect(issues(RegisterSchema, { ...valid, firstName: '  ' })).toEqual(['First name is required']);
    expect(issues(RegisterSchema, { password: valid.password, firstName: 'A', lastName: 'B' })).toEqual(['Email is required']);
  });

  it('lets an old short password be tried at sign-in', () => {
    expect(v.parse(LoginSchema, { email: 'a@b.org', password: 'short' })).toEqual({ email: 'a@b.org', password: 'short' });
    expect(issues(LoginSchema, { email: 'a@b.org', password: '' })).toEqual(['Password is required']);
  });

  it('parses a magic-link request and a role change', () => {
    expect(v.parse(MagicLinkSchema, { email: 'A@B.org' })).toEqual({ email: 'a@b.org' });
    expect(v.parse(RoleChangeSchema, { role: 'staff' })).toEqual({ role: 'staff' });
    expect(issues(RoleChangeSchema, { role: 'owner' })).toEqual(['Role must be one of admin, staff, member, subscriber']);
  });
});

describe('displayName and initials', () => {
  it('uses first and last name when both exist', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' })).toBe('Ada Lovelace');
  });

  it('falls back to the part of the e-mail before the at sign, then to User', () => {
    expect(displayName({ firstName: 'Ada', lastName: '', email: 'countess@example.org' })).toBe('countess');
    expect(displayName({ firstName: null, lastName: null, email: null })).toBe('User');
    expect(displayName({})).toBe('User');
  });

  it('takes the uppercase initials of up to the first two words', () => {
    expect(initials('ada lovelace')).toBe('AL');
    expect(initials('  Mary  Ann Evans ')).toBe('MA');
    expect(initials('countess')).toBe('C');
    expect(initials('')).toBe('');
    expect(initials('élodie ørsted')).toBe('ÉØ');
  });
});

describe('EraseMember', () => {
  const erase = (actor: Actor, content: 'kept' | 'removed' = 'kept', adminCount = 2) => ({
    type: 'EraseMember' as const,
    data: { content, adminCount },
    metadata: by(actor),
  });
  const erased = (content: 'kept' | 'removed'): MemberEvent => ({ type: 'MemberErased', data: { content, at } });

  it('lets members erase their own account, keeping or removing their content', () => {
    spec
      .given([registered()])
      .when(erase(self))
      .then([erased('kept')]);
    spec
      .given([registered()])
      .when(erase(self, 'removed'))
      .then([erased('removed')]);
  });

  it('lets a suspended member leave too', () => {
    spec
      .given([registered(), suspended])
      .when(erase(self))
      .then([erased('kept')]);
  });

  it('refuses anyone else, admins included', () => {
    spec.given([registered()]).when(erase(admin)).thenThrows('forbidden', 'Only the member can erase their own account');
    spec.given([registered()]).when(erase(other)).thenThrows('forbidden', 'Only the member can erase their own account');
  });

  it('keeps the last active admin, but not a suspended one', () => {
    const selfAdmin: Actor = { id: MEMBER_ID, role: 'admin' };
    spec
      .given([registered('admin')])
      .when(erase(selfAdmin, 'kept', 1))
      .thenThrows('rule', 'The last admin cannot leave. Make another member admin first.');
    spec
      .given([registered('admin')])
      .when(erase(selfAdmin, 'kept', 2))
      .then([erased('kept')]);
    spec
      .given([registered('admin'), suspended])
      .when(erase(selfAdmin, 'kept', 1))
      .then([erased('kept')]);
  });

  it('leaves nothing to do with an erased account: every command finds no member', () => {
    const gone = [registered(), erased('kept')];
    spec.given(gone).when(erase(self)).thenThrows('not_found', 'Member not found');
    spec
      .given(gone)
      .when({ type: 'ChangeProfile', data: { firstName: 'Back' }, metadata: by(self) })
      .thenThrows('not_found', 'Member not found');
    spec
      .given(gone)
      .when({ type: 'SuspendMember', data: {}, metadata: by(admin) })
      .thenThrows('not_found', 'Member not found');
  });
});
