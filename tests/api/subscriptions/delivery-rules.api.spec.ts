/** The pure rules of subscription mail: digest periods, what a digest holds, which events call for mail, templates. */
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../../platform/event-store/port';
import { digestItems, digestPeriod } from '../../../workers/subscriptions/digests';
import { reactionTo } from '../../../workers/subscriptions/reactor';
import type { MailItem } from '../../../workers/subscriptions/items';
import { renderMail } from '../../../workers/subscriptions/templates';
import { messageIdFor } from '../../../workers/subscriptions/delivery';

describe('digest periods', () => {
  it('are days and Monday-named weeks in the site time zone', () => {
    // 05:59 UTC is still the evening before in Chicago.
    expect(digestPeriod('daily', new Date('2030-03-02T05:59:00Z'), 'America/Chicago')).toBe('daily:2030-03-01');
    expect(digestPeriod('daily', new Date('2030-03-02T06:00:00Z'), 'America/Chicago')).toBe('daily:2030-03-02');
    // Sunday 22 November 2026 belongs to the week of Monday the 16th; Monday the 23rd starts the next.
    expect(digestPeriod('weekly', new Date('2026-11-22T18:00:00Z'), 'America/Chicago')).toBe('weekly:2026-11-16');
    expect(digestPeriod('weekly', new Date('2026-11-23T13:00:00Z'), 'America/Chicago')).toBe('weekly:2026-11-23');
    expect(digestPeriod('weekly', new Date('2026-11-23T03:00:00Z'), 'America/Chicago')).toBe('weekly:2026-11-16');
  });
});

const item = (kind: MailItem['kind'], itemId: string, announcedAt: number | null, extra: Partial<MailItem> = {}): MailItem => ({
  _id: `${kind}:${itemId}`,
  _position: announcedAt ?? 0,
  kind,
  itemId,
  title: itemId,
  text: '',
  approved: true,
  deleted: false,
  isPublic: true,
  startDate: null,
  endDate: null,
  allDay: false,
  visible: announcedAt !== null,
  announcedAt,
  ...extra,
});

describe('digest contents', () => {
  const now = new Date('2030-03-02T13:00:00Z');
  const items = [
    item('blog', 'old-blog', 5),
    item('blog', 'new-blog', 15),
    item('post', 'new-post', 16),
    item('post', 'withdrawn', 17, { visible: false }),
    item('event', 'ahead', 18, { startDate: '2030-04-01T00:00:00.000Z' }),
    item('event', 'over', 19, { startDate: '2030-03-01T00:00:00.000Z' }),
  ];

  it('holds what is new after the cursor, as the subscription type covers it, and only events still ahead', () => {
    expect(digestItems({ subscriptionType: 'all', memberId: null }, 10, items, now)).toEqual({
      blog: ['new-blog'],
      posts: ['new-post'],
      events: ['ahead'],
    });
    expect(digestItems({ subscriptionType: 'blog_posts', memberId: null }, 10, items, now)).toEqual({
      blog: ['new-blog'],
      posts: [],
      events: [],
    });
    expect(digestItems({ subscriptionType: 'newsfeed', memberId: null }, 10, items, now)).toEqual({
      blog: [],
      posts: ['new-post'],
      events: ['ahead'],
    });
    expect(digestItems({ subscriptionType: 'all', memberId: null }, 19, items, now)).toEqual({ blog: [], posts: [], events: [] });
  });
});

const recorded = (streamName: string, type: string, data: unknown): RecordedEvent => ({
  id: 'e',
  streamName,
  version: 0,
  position: 1,
  type,
  data,
  metadata: {},
  createdAt: new Date(),
});

describe('which events call for mail', () => {
  it('the first publication of a blog post, an approved feed post, a guest asking to subscribe; nothing else', () => {
    expect(reactionTo(recorded('blog-b1', 'BlogPostPublished', { firstPublication: true }))).toEqual({
      to: 'immediate',
      content: 'blog',
      itemId: 'b1',
    });
    expect(reactionTo(recorded('blog-b1', 'BlogPostPublished', { firstPublication: false }))).toBeNull();
    expect(reactionTo(recorded('post-p1', 'PostApproved', {}))).toEqual({ to: 'immediate', content: 'post', itemId: 'p1' });
    expect(reactionTo(recorded('post-p1', 'PostSubmitted', { approved: true }))).toEqual({
      to: 'immediate',
      content: 'post',
      itemId: 'p1',
    });
    expect(reactionTo(recorded('post-p1', 'PostSubmitted', { approved: false }))).toBeNull();
    expect(reactionTo(recorded('subscription-s1', 'SubscriptionRequested', { confirmationRequired: true }))).toEqual({
      to: 'guest',
      subscriptionId: 's1',
    });
    expect(reactionTo(recorded('subscription-s1', 'SubscriptionRequested', { confirmationRequired: false }))).toBeNull();
    expect(reactionTo(recorded('event-e1', 'EventApproved', {}))).toBeNull();
  });
});

describe('templates', () => {
  const links = {
    site: 'https://c.example.org/',
    unsubscribe: 'https://c.example.org/unsubscribe/T',
    manage: 'https://c.example.org/subscription-settings',
  };

  it('render HTML and text from one template, escaping what members wrote and keeping their line breaks', async () => {
    const mail = await renderMail(
      { kind: 'post', post: { text: 'Line one <img src=x onerror=alert(1)>\nLine two & more', url: 'https://c.example.org/' } },
      links,
    );
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('Line one &lt;img src=x onerror=alert(1)&gt;');
    expect(mail.text).toContain('Line one <img src=x onerror=alert(1)>\nLine two & more');
    expect(mail.text).toContain('Unsubscribe https://c.example.org/unsubscribe/T');
    expect(mail.text).toContain('Manage subscriptions https://c.example.org/subscription-settings');
  });

  it('split a digest into blog, feed and upcoming events', async () => {
    const mail = await renderMail(
      {
        kind: 'digest',
        frequency: 'weekly',
        blog: [{ title: 'Tower', excerpt: 'A century', url: 'https://c.example.org/blog/1' }],
        posts: [{ text: 'Found a rate card', url: 'https://c.example.org/' }],
        events: [{ title: 'Reunion', when: 'Saturday, July 4, 2026 · 1:00 PM – 4:00 PM', url: 'https://c.example.org/calendar' }],
      },
      links,
    );
    expect(mail.subject).toBe('Your weekly digest from Broadcast History Community: 1 blog post, 1 feed post, 1 upcoming event');
    const order = ['FROM THE BLOG', 'IN THE NEWSFEED', 'UPCOMING EVENTS'].map((heading) => mail.text.indexOf(heading));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
  });

  it('list every entry of a digest section, even entries with the same link, and leave an empty section out', async () => {
    const mail = await renderMail(
      {
        kind: 'digest',
        frequency: 'daily',
        blog: [],
        posts: [
          { text: 'First rate card', url: 'https://c.example.org/#post-1' },
          { text: 'Second rate card', url: 'https://c.example.org/#post-2' },
        ],
        events: [
          { title: 'Reunion', when: 'Saturday', url: 'https://c.example.org/calendar' },
          { title: 'Memorial', when: 'Sunday', url: 'https://c.example.org/calendar' },
        ],
      },
      links,
    );
    for (const text of ['First rate card', 'Second rate card', 'Reunion', 'Memorial', 'https://c.example.org/#post-2'])
      expect(mail.text).toContain(text);
    expect(mail.text).not.toContain('FROM THE BLOG');
  });

  it('give each outbox entry its own stable Message-ID on the site domain', () => {
    expect(messageIdFor('item:s1:blog:b1', 'https://c.example.org')).toBe(messageIdFor('item:s1:blog:b1', 'https://c.example.org'));
    expect(messageIdFor('item:s1:blog:b1', 'https://c.example.org')).not.toBe(messageIdFor('item:s2:blog:b1', 'https://c.example.org'));
    expect(messageIdFor('item:s1:blog:b1', 'https://c.example.org')).toMatch(/^<[0-9a-f]{32}@c\.example\.org>$/);
  });
});
