import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { type BlogPostCommand, type BlogPostEvent, blogPostDecider } from '../../../shared/blog/blog-stream';
import { CreateBlogPostSchema, UpdateBlogPostSchema } from '../../../shared/blog/schemas';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(blogPostDecider);
const now = new Date('2025-03-01T10:00:00.000Z');
const at = now.toISOString();
const POST_ID = 'blog-1';
const staff: Actor = { id: 'staff-1', role: 'staff' };
const admin: Actor = { id: 'admin-1', role: 'admin' };
const change = { by: staff.id, at };
const by = (actor: Actor | null): CommandMetadata => ({ now, actor });
const toggle = <Type extends Exclude<BlogPostCommand['type'], 'CreateBlogPost' | 'EditBlogPost'>>(
  type: Type,
  actor: Actor | null = staff,
) => ({ type, data: {}, metadata: by(actor) }) as Extract<BlogPostCommand, { type: Type }>;

const text = { title: 'The first licensed station', excerpt: 'How it began.', content: '<p>How it began.</p>' };
const drafted: BlogPostEvent = {
  type: 'BlogPostDrafted',
  data: { id: POST_ID, authorId: staff.id, ...text, tags: ['radio'], createdAt: '2025-01-01T00:00:00.000Z' },
};
const firstPublishedAt = '2025-01-02T00:00:00.000Z';
const published: BlogPostEvent = {
  type: 'BlogPostPublished',
  data: { publishedAt: firstPublishedAt, firstPublication: true, by: staff.id, at: firstPublishedAt },
};
const unpublished: BlogPostEvent = { type: 'BlogPostUnpublished', data: change };

describe('CreateBlogPost', () => {
  const create = (
    flags: Partial<Record<'isPublished' | 'isPinned' | 'isFeatured', boolean>>,
    actor: Actor | null = staff,
  ): BlogPostCommand => ({
    type: 'CreateBlogPost',
    data: { id: POST_ID, ...text, tags: ['radio'], isPublished: false, isPinned: false, isFeatured: false, ...flags },
    metadata: by(actor),
  });
  const draftedNow: BlogPostEvent = {
    type: 'BlogPostDrafted',
    data: { id: POST_ID, authorId: staff.id, ...text, tags: ['radio'], createdAt: at },
  };

  it('drafts a post', () => {
    spec.given([]).when(create({})).then([draftedNow]);
  });

  it('follows the draft with one event per toggle set in the create dialog', () => {
    spec
      .given([])
      .when(create({ isPublished: true, isPinned: true, isFeatured: true }))
      .then([
        draftedNow,
        { type: 'BlogPostPublished', data: { publishedAt: at, firstPublication: true, ...change } },
        { type: 'BlogPostPinned', data: change },
        { type: 'BlogPostFeatured', data: change },
      ]);
  });

  it('refuses members and subscribers', () => {
    spec
      .given([])
      .when(create({}, { id: 'm', role: 'member' }))
      .thenThrows('forbidden', 'Only admins and staff can manage blog posts');
    spec
      .given([])
      .when(create({}, { id: 's', role: 'subscriber' }))
      .thenThrows('forbidden', 'Only admins and staff can manage blog posts');
  });

  it('needs a signed-in actor', () => {
    spec.given([]).when(create({}, null)).thenThrows('unauthenticated', 'Not signed in');
  });

  it('refuses a second creation with the same id', () => {
    spec.given([drafted]).when(create({})).thenThrows('conflict', 'This blog post already exists');
  });
});

describe('EditBlogPost', () => {
  const edit = (data: Partial<typeof text> & { tags?: string[] }, actor: Actor = admin): BlogPostCommand => ({
    type: 'EditBlogPost',
    data: { ...text, ...data },
    metadata: by(actor),
  });

  it('records the edited text, leaving tags out when they did not change', () => {
    spec
      .given([drafted])
      .when(edit({ title: 'The first licensed station, 1920', tags: ['radio'] }))
      .then([{ type: 'BlogPostEdited', data: { ...text, title: 'The first licensed station, 1920', by: admin.id, at } }]);
  });

  it('records new tags', () => {
    spec
      .given([drafted])
      .when(edit({ tags: ['radio', 'am'] }))
      .then([{ type: 'BlogPostEdited', data: { ...text, tags: ['radio', 'am'], by: admin.id, at } }]);
  });

  it('is a no-op when nothing changed', () => {
    spec.given([drafted]).when(edit({})).then([]);
  });

  it('refuses members', () => {
    spec
      .given([drafted])
      .when(edit({ title: 'x' }, { id: 'm', role: 'member' }))
      .thenThrows('forbidden', 'Only admins and staff can manage blog posts');
  });

  it('is not found for an unknown post', () => {
    spec.given([]).when(edit({})).thenThrows('not_found', 'Blog post not found');
  });
});

describe('publishing', () => {
  it('publishes a draft for the first time', () => {
    spec
      .given([drafted])
      .when(toggle('PublishBlogPost'))
      .then([{ type: 'BlogPostPublished', data: { publishedAt: at, firstPublication: true, ...change } }]);
  });

  it('keeps the first publication time when published again', () => {
    spec
      .given([drafted, published, unpublished])
      .when(toggle('PublishBlogPost'))
      .then([{ type: 'BlogPostPublished', data: { publishedAt: firstPublishedAt, firstPublication: false, ...change } }]);
  });

  it('is a no-op to publish a published post or unpublish a draft', () => {
    spec.given([drafted, published]).when(toggle('PublishBlogPost')).then([]);
    spec.given([drafted]).when(toggle('UnpublishBlogPost')).then([]);
    spec.given([drafted, published, unpublished]).when(toggle('UnpublishBlogPost')).then([]);
  });

  it('unpublishes a published post', () => {
    spec.given([drafted, published]).when(toggle('UnpublishBlogPost')).then([unpublished]);
  });

  it('refuses members', () => {
    spec
      .given([drafted])
      .when(toggle('PublishBlogPost', { id: 'm', role: 'member' }))
      .thenThrows('forbidden', 'Only admins and staff can manage blog posts');
  });
});

describe('pinning and featuring', () => {
  it('pins and unpins', () => {
    spec
      .given([drafted])
      .when(toggle('PinBlogPost'))
      .then([{ type: 'BlogPostPinned', data: change }]);
    spec
      .given([drafted, { type: 'BlogPostPinned', data: change }])
      .when(toggle('UnpinBlogPost'))
      .then([{ type: 'BlogPostUnpinned', data: change }]);
  });

  it('features and unfeatures', () => {
    spec
      .given([drafted])
      .when(toggle('FeatureBlogPost'))
      .then([{ type: 'BlogPostFeatured', data: change }]);
    spec
      .given([drafted, { type: 'BlogPostFeatured', data: change }])
      .when(toggle('UnfeatureBlogPost'))
      .then([{ type: 'BlogPostUnfeatured', data: change }]);
  });

  it('is a no-op to repeat a toggle', () => {
    spec
      .given([drafted, { type: 'BlogPostPinned', data: change }])
      .when(toggle('PinBlogPost'))
      .then([]);
    spec.given([drafted]).when(toggle('UnpinBlogPost')).then([]);
    spec
      .given([drafted, { type: 'BlogPostFeatured', data: change }])
      .when(toggle('FeatureBlogPost'))
      .then([]);
    spec.given([drafted]).when(toggle('UnfeatureBlogPost')).then([]);
  });

  it('refuses subscribers', () => {
    spec
      .given([drafted])
      .when(toggle('FeatureBlogPost', { id: 's', role: 'subscriber' }))
      .thenThrows('forbidden', 'Only admins and staff can manage blog posts');
  });
});

describe('DeleteBlogPost', () => {
  const deleted: BlogPostEvent = { type: 'BlogPostDeleted', data: change };

  it('deletes a post', () => {
    spec.given([drafted, published]).when(toggle('DeleteBlogPost')).then([deleted]);
  });

  it('leaves a deleted post accepting no command', () => {
    for (const type of ['DeleteBlogPost', 'PublishBlogPost', 'PinBlogPost', 'UnfeatureBlogPost'] as const) {
      spec.given([drafted, deleted]).when(toggle(type)).thenThrows('not_found', 'Blog post not found');
    }
  });

  it('refuses members', () => {
    spec
      .given([drafted])
      .when(toggle('DeleteBlogPost', { id: 'm', role: 'member' }))
      .thenThrows('forbidden', 'Only admins and staff can manage blog posts');
  });
});

describe('blog schemas', () => {
  const firstMessage = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).issues?.[0]?.message;

  it('parses a create body with defaults for what the dialog left out', () => {
    expect(v.parse(CreateBlogPostSchema, { title: ' Title ', content: '<p>Body</p>' })).toEqual({
      title: 'Title',
      content: '<p>Body</p>',
      excerpt: '',
      isPublished: false,
      isPinned: false,
      isFeatured: false,
      tags: [],
      mediaId: null,
    });
  });

  it('normalises tags and keeps the toggles', () => {
    expect(v.parse(CreateBlogPostSchema, { title: 't', content: 'c', isPublished: true, tags: ['#Radio', 'radio'] })).toMatchObject({
      isPublished: true,
      tags: ['radio'],
    });
  });

  it('requires a title and content, with the spec’s messages', () => {
    expect(firstMessage(CreateBlogPostSchema, { content: 'c' })).toBe('Title is required');
    expect(firstMessage(CreateBlogPostSchema, { title: '   ', content: 'c' })).toBe('Title is required');
    expect(firstMessage(CreateBlogPostSchema, { title: 't', content: '' })).toBe('Content is required');
    expect(firstMessage(UpdateBlogPostSchema, { title: 't', excerpt: 'e' })).toBe('Content is required');
  });

  it('limits the title to 255 characters', () => {
    expect(v.safeParse(CreateBlogPostSchema, { title: 't'.repeat(255), content: 'c' }).success).toBe(true);
    expect(firstMessage(CreateBlogPostSchema, { title: 't'.repeat(256), content: 'c' })).toBe('Title must be at most 255 characters');
  });

  it('reads a null excerpt as empty (to be generated) and leaves tags out of an update that has none', () => {
    expect(v.parse(UpdateBlogPostSchema, { title: 't', excerpt: null, content: 'c' })).toEqual({
      title: 't',
      excerpt: '',
      content: 'c',
      tags: undefined,
    });
  });

  it('refuses a toggle that is not a boolean', () => {
    expect(firstMessage(CreateBlogPostSchema, { title: 't', content: 'c', isPinned: 'yes' })).toBe('isPinned must be true or false');
  });
});
