/** Nobody is mailed about their own content: the rule, and what it leaves out of a digest. */
import { describe, expect, it } from 'vitest';
import { isOwnItem, type MailItem } from '../../../workers/subscriptions/items';
import { digestItems } from '../../../workers/subscriptions/digests';

const ann = { memberId: 'ann' };
const guest = { memberId: null };

describe('own items', () => {
  it("are the ones the subscription's member wrote or organises", () => {
    expect(isOwnItem(ann, { authorId: 'ann' })).toBe(true);
    expect(isOwnItem(ann, { authorId: 'bob' })).toBe(false);
  });

  it('belong to nobody when the item has no author (documents kept before authors were) or the subscriber is a guest', () => {
    expect(isOwnItem(ann, {})).toBe(false);
    expect(isOwnItem(ann, { authorId: null })).toBe(false);
    expect(isOwnItem(guest, { authorId: null })).toBe(false);
    expect(isOwnItem(guest, {})).toBe(false);
    expect(isOwnItem(guest, { authorId: 'ann' })).toBe(false);
  });
});

const item = (kind: MailItem['kind'], itemId: string, authorId: string | undefined, announcedAt: number): MailItem => ({
  _id: `${kind}:${itemId}`,
  _position: announcedAt,
  kind,
  itemId,
  title: itemId,
  text: '',
  ...(authorId === undefined ? {} : { authorId }),
  approved: true,
  deleted: false,
  isPublic: true,
  startDate: kind === 'event' ? '2030-04-01T00:00:00.000Z' : null,
  endDate: kind === 'event' ? '2030-04-01T01:00:00.000Z' : null,
  allDay: false,
  visible: true,
  announcedAt,
});

describe('a digest', () => {
  const now = new Date('2030-03-02T13:00:00Z');
  const items = [
    item('blog', 'anns-column', 'ann', 11),
    item('blog', 'bobs-column', 'bob', 12),
    item('post', 'anns-find', 'ann', 13),
    item('post', 'bobs-find', 'bob', 14),
    item('post', 'from-before-authors', undefined, 15),
    item('event', 'anns-meetup', 'ann', 16),
    item('event', 'bobs-meetup', 'bob', 17),
  ];

  it("leaves out the member's own blog posts, feed posts and events, and keeps everyone else's", () => {
    expect(digestItems({ subscriptionType: 'all', memberId: 'ann' }, 10, items, now)).toEqual({
      blog: ['bobs-column'],
      posts: ['bobs-find', 'from-before-authors'],
      events: ['bobs-meetup'],
    });
  });

  it('leaves out nothing for a guest', () => {
    expect(digestItems({ subscriptionType: 'all', memberId: null }, 10, items, now)).toEqual({
      blog: ['anns-column', 'bobs-column'],
      posts: ['anns-find', 'bobs-find', 'from-before-authors'],
      events: ['anns-meetup', 'bobs-meetup'],
    });
  });
});
