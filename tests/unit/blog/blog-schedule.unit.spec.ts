/** The blog post decider's slugs and schedule (docs/domain/blog.md#addresses, #scheduling), given / when / then. */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { type BlogPostCommand, type BlogPostEvent, blogPostDecider } from '../../../shared/blog/blog-stream';
import { CreateBlogPostSchema, UpdateBlogPostSchema } from '../../../shared/blog/schemas';
import { slugify } from '../../../shared/blog/slug';
import { zonedToUtc, utcToZoned } from '../../../shared/blog/schedule-time';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(blogPostDecider);
const now = new Date('2025-03-01T10:00:00.000Z');
const at = now.toISOString();
const later = '2025-03-02T09:00:00.000Z';
const staff: Actor = { id: 'staff-1', role: 'staff' };
const by = (actor: Actor | null, when = now): CommandMetadata => ({ now: when, actor });
const text = { title: 'Sign-on', excerpt: 'x', content: '<p>x</p>' };
const drafted: BlogPostEvent = {
  type: 'BlogPostDrafted',
  data: { id: 'b1', authorId: staff.id, ...text, slug: 'sign-on', tags: [], createdAt: '2025-01-01T00:00:00.000Z' },
};
const scheduled: BlogPostEvent = { type: 'BlogPostScheduled', data: { publishAt: later, by: staff.id, at } };
const edit = (data: Partial<Extract<BlogPostCommand, { type: 'EditBlogPost' }>['data']>, when = now): BlogPostCommand => ({
  type: 'EditBlogPost',
  data: { ...text, ...data },
  metadata: by(staff, when),
});
const scheduledPublish = (publishAt: string, when: Date): BlogPostCommand => ({
  type: 'PublishScheduledBlogPost',
  data: { publishAt },
  metadata: by(null, when),
});

describe('slugs', () => {
  it('keeps the slug the caller claimed in the draft, and records a new one with an edit', () => {
    spec
      .given([])
      .when({
        type: 'CreateBlogPost',
        data: { id: 'b1', ...text, slug: 'sign-on', tags: [], isPublished: false, isPinned: false, isFeatured: false },
        metadata: by(staff),
      })
      .then([{ type: 'BlogPostDrafted', data: { id: 'b1', authorId: staff.id, ...text, slug: 'sign-on', tags: [], createdAt: at } }]);
    spec
      .given([drafted])
      .when(edit({ slug: 'sign-on-1922' }))
      .then([{ type: 'BlogPostEdited', data: { ...text, slug: 'sign-on-1922', by: staff.id, at } }]);
  });

  it('records nothing for the slug it already has', () => {
    spec
      .given([drafted])
      .when(edit({ slug: 'sign-on' }))
      .then([]);
  });

  it('makes slugs from titles: letters and digits, accents dropped, never empty or a post id', () => {
    expect(slugify('Wave Tower, 1962: the Story!')).toBe('wave-tower-1962-the-story');
    expect(slugify('Élan à la Radió')).toBe('elan-a-la-radio');
    expect(slugify('¡¿…?!')).toBe('post');
    expect(slugify('00000000-0000-4000-8000-000000000000')).toBe('post');
    expect(slugify('x'.repeat(300)).length).toBeLessThanOrEqual(96);
  });

  it('takes a slug as typed, lower-cased and trimmed, and refuses what cannot be an address', () => {
    const parse = (slug: string) => v.safeParse(UpdateBlogPostSchema, { ...text, slug });
    expect(parse(' Sign-On ').output).toMatchObject({ slug: 'sign-on' });
    for (const bad of ['two words', '-dash', 'dash-', 'a--b', 'ü', '', '00000000-0000-4000-8000-000000000000'])
      expect(parse(bad).success, bad).toBe(false);
  });
});

describe('scheduling', () => {
  it('schedules a new post instead of publishing it', () => {
    spec
      .given([])
      .when({
        type: 'CreateBlogPost',
        data: { id: 'b1', ...text, slug: 'sign-on', tags: [], isPublished: true, isPinned: false, isFeatured: false, publishAt: later },
        metadata: by(staff),
      })
      .then([
        { type: 'BlogPostDrafted', data: { id: 'b1', authorId: staff.id, ...text, slug: 'sign-on', tags: [], createdAt: at } },
        scheduled,
      ]);
  });

  it('refuses a time that is not ahead', () => {
    spec
      .given([drafted])
      .when(edit({ publishAt: at }))
      .thenThrows('invalid', 'Choose a time in the future');
  });

  it('moves, keeps and takes away a schedule; a published post is not scheduled', () => {
    const other = '2025-03-05T09:00:00.000Z';
    spec
      .given([drafted, scheduled])
      .when(edit({ publishAt: other }))
      .then([{ type: 'BlogPostScheduled', data: { publishAt: other, by: staff.id, at } }]);
    spec
      .given([drafted, scheduled])
      .when(edit({ publishAt: later }))
      .then([]);
    spec.given([drafted, scheduled]).when(edit({})).then([]);
    spec
      .given([drafted, scheduled])
      .when(edit({ publishAt: null }))
      .then([{ type: 'BlogPostUnscheduled', data: { by: staff.id, at } }]);
    spec
      .given([drafted])
      .when(edit({ publishAt: null }))
      .then([]);
    const published: BlogPostEvent = { type: 'BlogPostPublished', data: { publishedAt: at, firstPublication: true, by: staff.id, at } };
    spec
      .given([drafted, published])
      .when(edit({ publishAt: later }))
      .thenThrows('rule', 'This post is published already');
  });

  it('publishes at the scheduled time for whoever scheduled it, once', () => {
    const due = new Date(Date.parse(later) + 500);
    const publication: BlogPostEvent = {
      type: 'BlogPostPublished',
      data: { publishedAt: later, firstPublication: true, by: staff.id, at: later },
    };
    spec.given([drafted, scheduled]).when(scheduledPublish(later, due)).then([publication]);
    // Again (another process, a restart): nothing.
    spec.given([drafted, scheduled, publication]).when(scheduledPublish(later, due)).then([]);
  });

  it('does nothing before the time, for a schedule that moved or was taken away, or for a deleted post', () => {
    spec.given([drafted, scheduled]).when(scheduledPublish(later, now)).then([]);
    spec
      .given([drafted, scheduled, { type: 'BlogPostScheduled', data: { publishAt: '2025-04-01T00:00:00.000Z', by: staff.id, at } }])
      .when(scheduledPublish(later, new Date('2025-03-03T00:00:00Z')))
      .then([]);
    spec
      .given([drafted, scheduled, { type: 'BlogPostUnscheduled', data: { by: staff.id, at } }])
      .when(scheduledPublish(later, new Date('2025-03-03T00:00:00Z')))
      .then([]);
    spec
      .given([drafted, scheduled, { type: 'BlogPostDeleted', data: { by: staff.id, at } }])
      .when(scheduledPublish(later, new Date('2025-03-03T00:00:00Z')))
      .then([]);
  });

  it('publishing by hand takes the schedule away', () => {
    const published: BlogPostEvent = { type: 'BlogPostPublished', data: { publishedAt: at, firstPublication: true, by: staff.id, at } };
    spec
      .given([drafted, scheduled])
      .when({ type: 'PublishBlogPost', data: {}, metadata: by(staff) })
      .then([published]);
    spec
      .given([drafted, scheduled, published])
      .when(scheduledPublish(later, new Date('2025-03-03T00:00:00Z')))
      .then([]);
  });

  it('reads publishAt as an ISO time with its offset, kept in UTC', () => {
    const parse = (publishAt: string) => v.safeParse(CreateBlogPostSchema, { ...text, publishAt });
    expect(parse('2030-01-31T09:00:00-06:00').output).toMatchObject({ publishAt: '2030-01-31T15:00:00.000Z' });
    for (const bad of ['tomorrow', '2030-01-31', '2030-02-31T09:00:00Z', '2030-01-31T09:00']) expect(parse(bad).success, bad).toBe(false);
  });

  it('turns the Schedule field’s wall-clock time in the site’s zone into UTC and back, across daylight saving', () => {
    expect(zonedToUtc('2030-01-31T09:00', 'America/Chicago')).toBe('2030-01-31T15:00:00.000Z');
    expect(zonedToUtc('2030-07-01T09:00', 'America/Chicago')).toBe('2030-07-01T14:00:00.000Z');
    expect(utcToZoned('2030-07-01T14:00:00.000Z', 'America/Chicago')).toBe('2030-07-01T09:00');
    expect(zonedToUtc('not a time', 'UTC')).toBeNull();
  });
});
