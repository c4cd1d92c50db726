/** The subscription settings page's Save (docs/domain/subscriptions.md#settings-page): exactly the calls that reach what the member chose. */
import { describe, expect, it } from 'vitest';
import {
  activeSubscriptions,
  rebaseEdits,
  saveSteps,
  savedChoices,
  shownChoices,
  type Subscription,
} from '../../../client/features/subscriptions/settings-plan';

const subscription = (overrides: Partial<Subscription>): Subscription => ({
  id: 'id',
  email: 'ann@example.org',
  subscriptionType: 'blog_posts',
  frequency: 'immediate',
  isActive: true,
  status: 'active',
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

describe('subscription settings', () => {
  it('shows a toggle on only for an active subscription, and immediate when there is none', () => {
    const choices = savedChoices([
      subscription({ id: 'b', frequency: 'daily' }),
      subscription({ id: 'n', subscriptionType: 'newsfeed', isActive: false, status: 'paused', frequency: 'weekly' }),
    ]);
    expect(choices).toEqual({
      blog_posts: { enabled: true, frequency: 'daily' },
      newsfeed: { enabled: false, frequency: 'weekly' },
      all: { enabled: false, frequency: 'immediate' },
    });
  });

  it('ignores ended subscriptions: turning the type on again creates a new one', () => {
    const ended = subscription({ isActive: false, status: 'unsubscribed' });
    expect(savedChoices([ended]).blog_posts.enabled).toBe(false);
    expect(saveSteps([ended], { blog_posts: { enabled: true, frequency: 'weekly' } })).toEqual([
      { kind: 'create', subscriptionType: 'blog_posts', frequency: 'weekly' },
    ]);
  });

  it('creates for a newly enabled type, updates a changed frequency, deletes one turned off', () => {
    const blog = subscription({ id: 'b' });
    const feed = subscription({ id: 'n', subscriptionType: 'newsfeed' });
    const steps = saveSteps([blog, feed], {
      blog_posts: { enabled: true, frequency: 'weekly' },
      newsfeed: { enabled: false, frequency: 'immediate' },
      all: { enabled: true, frequency: 'daily' },
    });
    expect(steps).toEqual([
      { kind: 'update', subscription: blog, changes: { frequency: 'weekly' } },
      { kind: 'remove', subscription: feed },
      { kind: 'create', subscriptionType: 'all', frequency: 'daily' },
    ]);
  });

  it('resumes a paused subscription turned back on, with its new frequency in the same call', () => {
    const paused = subscription({ id: 'p', isActive: false, status: 'paused' });
    expect(saveSteps([paused], { blog_posts: { enabled: true, frequency: 'daily' } })).toEqual([
      { kind: 'update', subscription: paused, changes: { isActive: true, frequency: 'daily' } },
    ]);
  });

  it('asks for nothing when the edits come back to what is saved, or only touch a type that stays off', () => {
    const blog = subscription({ id: 'b', frequency: 'daily' });
    const paused = subscription({ id: 'p', subscriptionType: 'newsfeed', isActive: false, status: 'paused' });
    expect(
      saveSteps([blog, paused], {
        blog_posts: { enabled: true, frequency: 'daily' },
        newsfeed: { enabled: false, frequency: 'weekly' },
        all: { enabled: false, frequency: 'weekly' },
      }),
    ).toEqual([]);
  });

  it('shows edits over what the server holds, type by type', () => {
    const shown = shownChoices([subscription({ id: 'b' })], { all: { enabled: true, frequency: 'weekly' } });
    expect(shown.blog_posts).toEqual({ enabled: true, frequency: 'immediate' });
    expect(shown.all).toEqual({ enabled: true, frequency: 'weekly' });
  });

  it('lists as active only confirmed subscriptions that are switched on', () => {
    const active = subscription({ id: 'a' });
    const list = [
      active,
      subscription({ id: 'p', subscriptionType: 'newsfeed', isActive: false, status: 'paused' }),
      subscription({ id: 'q', subscriptionType: 'all', status: 'pending' }),
    ];
    expect(activeSubscriptions(list)).toEqual([active]);
  });
});

describe('edits carried over a change made elsewhere', () => {
  const blog = subscription({ id: 'b', frequency: 'daily' });
  const feed = subscription({ id: 'n', subscriptionType: 'newsfeed' });

  it('turns a toggle off for a subscription ended elsewhere when the member only changed its frequency', () => {
    const before = savedChoices([blog, feed]);
    const after = savedChoices([{ ...blog, status: 'unsubscribed', isActive: false }, feed]);
    const edits = rebaseEdits({ blog_posts: { enabled: true, frequency: 'weekly' } }, before, after);
    expect(edits).toEqual({ blog_posts: { enabled: false, frequency: 'weekly' } });
    expect(shownChoices([{ ...blog, status: 'unsubscribed', isActive: false }, feed], edits).blog_posts.enabled).toBe(false);
    // Nothing to save: the member never asked for the subscription to go on.
    expect(saveSteps([{ ...blog, status: 'unsubscribed', isActive: false }, feed], edits)).toEqual([]);
  });

  it('keeps what the member changed, and the other types follow the server', () => {
    const before = savedChoices([blog]);
    const after = savedChoices([blog, feed]);
    const edits = rebaseEdits(
      { all: { enabled: true, frequency: 'weekly' }, blog_posts: { enabled: false, frequency: 'daily' } },
      before,
      after,
    );
    expect(edits).toEqual({ all: { enabled: true, frequency: 'weekly' }, blog_posts: { enabled: false, frequency: 'daily' } });
    expect(shownChoices([blog, feed], edits).newsfeed).toEqual({ enabled: true, frequency: 'immediate' });
  });

  it('drops an edit the server now matches, as after a Save', () => {
    const before = savedChoices([blog]);
    const after = savedChoices([{ ...blog, frequency: 'weekly' }]);
    expect(rebaseEdits({ blog_posts: { enabled: true, frequency: 'weekly' } }, before, after)).toEqual({});
  });

  it('keeps a frequency chosen against a change of frequency elsewhere', () => {
    const before = savedChoices([blog]);
    const after = savedChoices([{ ...blog, frequency: 'immediate' }]);
    expect(rebaseEdits({ blog_posts: { enabled: true, frequency: 'weekly' } }, before, after)).toEqual({
      blog_posts: { enabled: true, frequency: 'weekly' },
    });
  });
});
