import { describe, expect, it } from 'vitest';
import { shareKey, sharer } from '../../../server/feed/shares';

describe('a share counts once per visitor and post per day', () => {
  const post = '6f1c2d3e-0000-4000-8000-000000000001';
  const chicago = (iso: string) => shareKey(post, 'member:m1', new Date(iso), 'America/Chicago');

  it('per day of the site’s time zone, not of UTC', () => {
    // 05:59Z is 23:59 the evening before in Chicago (UTC−6 in January); 06:01Z is 00:01.
    expect(chicago('2030-01-02T05:59:00Z')).not.toBe(chicago('2030-01-02T06:01:00Z'));
    expect(chicago('2030-01-02T06:01:00Z')).toBe(chicago('2030-01-03T05:59:00Z'));
    expect(shareKey(post, 'member:m1', new Date('2030-01-02T05:59:00Z'), 'UTC')).toBe(
      shareKey(post, 'member:m1', new Date('2030-01-02T06:01:00Z'), 'UTC'),
    );
  });

  it('per post and per visitor: a member by id wherever they are, a guest by address', () => {
    const now = new Date('2030-01-02T12:00:00Z');
    const member = sharer({ id: 'm1', role: 'member' }, '203.0.113.7');
    expect(member).toBe(sharer({ id: 'm1', role: 'member' }, '198.51.100.1'));
    expect(member).not.toBe(sharer({ id: 'm2', role: 'member' }, '203.0.113.7'));
    expect(sharer(null, '203.0.113.7')).not.toBe(sharer(null, '203.0.113.8'));
    // An address never passes for a member.
    expect(sharer(null, 'm1')).not.toBe(sharer({ id: 'm1', role: 'member' }, '203.0.113.7'));
    expect(shareKey(post, member, now, 'UTC')).not.toBe(shareKey('6f1c2d3e-0000-4000-8000-000000000002', member, now, 'UTC'));
  });
});
