/** The member decider's rules for a member's own account: bio, e-mail address (docs/domain/members.md#own-account). */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { type MemberEvent, memberDecider } from '../../../shared/members/member-stream';
import { EmailChangeSchema, ProfileChangeSchema } from '../../../shared/members/schemas';
import { deciderSpec } from '../../support/decider-spec';
import { MEMBER_ID, memberRegistered } from '../../support/member-events';
import { describeUserAgent } from '../../../server/members/user-agent';

const spec = deciderSpec(memberDecider);
const now = new Date('2025-03-01T10:00:00.000Z');
const at = now.toISOString();
const admin: Actor = { id: 'admin-1', role: 'admin' };
const self: Actor = { id: MEMBER_ID, role: 'member' };
const other: Actor = { id: 'member-2', role: 'member' };
const by = (actor: Actor | null): CommandMetadata => ({ now, actor });

const registered = memberRegistered();
const withBio: MemberEvent = { type: 'MemberProfileChanged', data: { bio: 'Engines.' } };

describe('ChangeProfile: bio', () => {
  it('records a new bio, trimmed', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeProfile', data: { bio: '  I restore tube radios.  ' }, metadata: by(self) })
      .then([{ type: 'MemberProfileChanged', data: { bio: 'I restore tube radios.' } }]);
  });

  it('records an emptied bio', () => {
    spec
      .given([registered, withBio])
      .when({ type: 'ChangeProfile', data: { bio: '' }, metadata: by(self) })
      .then([{ type: 'MemberProfileChanged', data: { bio: '' } }]);
  });

  it('is a no-op when the bio is the same', () => {
    spec
      .given([registered, withBio])
      .when({ type: 'ChangeProfile', data: { bio: ' Engines. ' }, metadata: by(self) })
      .then([]);
  });

  it('takes 500 characters and refuses 501', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeProfile', data: { bio: 'x'.repeat(500) }, metadata: by(self) })
      .then([{ type: 'MemberProfileChanged', data: { bio: 'x'.repeat(500) } }]);
    spec
      .given([registered])
      .when({ type: 'ChangeProfile', data: { bio: 'x'.repeat(501) }, metadata: by(self) })
      .thenThrows('invalid', 'Bio must be at most 500 characters');
  });

  it('refuses another member’s bio', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeProfile', data: { bio: 'Mine now' }, metadata: by(other) })
      .thenThrows('forbidden', 'You can only change your own profile');
  });
});

describe('ChangeEmail', () => {
  it('records the new address, lowercased', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeEmail', data: { email: ' Augusta@Example.ORG ' }, metadata: by(self) })
      .then([{ type: 'MemberEmailChanged', data: { email: 'augusta@example.org', changedAt: at } }]);
  });

  it('is a no-op for the address the member has', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeEmail', data: { email: 'ADA@example.org' }, metadata: by(self) })
      .then([]);
    const moved: MemberEvent = { type: 'MemberEmailChanged', data: { email: 'augusta@example.org', changedAt: at } };
    spec
      .given([registered, moved])
      .when({ type: 'ChangeEmail', data: { email: 'augusta@example.org' }, metadata: by(self) })
      .then([]);
  });

  it('refuses anyone but the member, admins included', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeEmail', data: { email: 'x@example.org' }, metadata: by(admin) })
      .thenThrows('forbidden', 'You can only change your own e-mail address');
  });

  it('refuses a suspended member', () => {
    spec
      .given([registered, { type: 'MemberSuspended', data: { by: admin.id, at } }])
      .when({ type: 'ChangeEmail', data: { email: 'x@example.org' }, metadata: by(self) })
      .thenThrows('forbidden', 'Your account is suspended. Please contact the community staff.');
  });

  it('is not found for an unknown member', () => {
    spec
      .given([])
      .when({ type: 'ChangeEmail', data: { email: 'x@example.org' }, metadata: by(self) })
      .thenThrows('not_found');
  });
});

describe('account schemas', () => {
  it('trims a bio and says what is too long', () => {
    expect(v.parse(ProfileChangeSchema, { bio: '  hello  ' })).toEqual({ bio: 'hello' });
    const issues = v.safeParse(ProfileChangeSchema, { bio: 'x'.repeat(501) }).issues!;
    expect(issues[0]?.message).toBe('Bio must be at most 500 characters');
  });

  it('lowercases a new address', () => {
    expect(v.parse(EmailChangeSchema, { email: ' New@Example.ORG ', currentPassword: 'correct horse battery' })).toEqual({
      email: 'new@example.org',
      currentPassword: 'correct horse battery',
    });
  });
});

describe('describeUserAgent', () => {
  it('names the browser and system in a few words', () => {
    expect(
      describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'),
    ).toBe('Chrome on Windows');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe('Firefox on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'),
    ).toBe('Chrome on Linux');
    expect(
      describeUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36'),
    ).toBe('Chrome on Android');
  });

  it('keeps an unknown one short, and says nothing for none', () => {
    expect(describeUserAgent('SomeRobot/1.0')).toBe('SomeRobot/1.0');
    expect(describeUserAgent('x'.repeat(100))).toHaveLength(40);
    expect(describeUserAgent(undefined)).toBeNull();
    expect(describeUserAgent('  ')).toBeNull();
  });
});
