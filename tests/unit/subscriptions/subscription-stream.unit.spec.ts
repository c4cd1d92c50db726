import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { given } from '../../support/decider-spec';
import { fold, type Actor } from '../../../shared/domain';
import {
  INVALID_LINK,
  SUBSCRIPTION_ENDED,
  coversContent,
  isDeliverable,
  subscriptionDecider,
  subscriptionStatus,
  type SubscriptionCommand,
  type SubscriptionEvent,
} from '../../../shared/subscriptions/subscription-stream';
import { GuestSubscribeSchema, NewSubscriptionSchema, SubscriptionUpdateSchema, TokenSchema } from '../../../shared/subscriptions/schemas';
import { SUBSCRIPTION_TYPE_LABELS } from '../../../shared/subscriptions/constants';

const now = new Date('2026-06-01T12:00:00Z');
const at = now.toISOString();
const owner: Actor = { id: 'member-1', role: 'member' };
const other: Actor = { id: 'member-2', role: 'member' };
const staff: Actor = { id: 'staff-1', role: 'staff' };
const admin: Actor = { id: 'admin-1', role: 'admin' };
const meta = (actor: Actor | null) => ({ now, actor });
const tokenHash = 'a'.repeat(64);

const request = (
  actor: Actor | null,
  extra: Partial<Extract<SubscriptionCommand, { type: 'RequestSubscription' }>['data']> = {},
): SubscriptionCommand => ({
  type: 'RequestSubscription',
  data: { id: 's1', email: 'ada@example.org', subscriptionType: 'blog_posts', frequency: 'weekly', tokenHash, ...extra },
  metadata: meta(actor),
});
const requested = (memberId: string | null): SubscriptionEvent => ({
  type: 'SubscriptionRequested',
  data: {
    id: 's1',
    email: 'ada@example.org',
    memberId,
    subscriptionType: 'blog_posts',
    frequency: 'weekly',
    tokenHash,
    confirmationRequired: memberId === null,
    at,
  },
});
const guest = requested(null);
const members = requested(owner.id);
const confirmed: SubscriptionEvent = { type: 'SubscriptionConfirmed', data: { at } };
const paused: SubscriptionEvent = { type: 'SubscriptionPaused', data: { at } };
const unsubscribed: SubscriptionEvent = { type: 'Unsubscribed', data: { via: 'link', at } };
const update = (actor: Actor | null, data: { isActive?: boolean; frequency?: 'immediate' | 'daily' | 'weekly' }): SubscriptionCommand => ({
  type: 'UpdateSubscription',
  data,
  metadata: meta(actor),
});
const delivered = (itemKey: string): SubscriptionEvent => ({ type: 'EmailDelivered', data: { kind: 'item', itemKey, at } });

describe('subscribing', () => {
  it('asks a guest to confirm and confirms a member at once', () => {
    given(subscriptionDecider).when(request(null)).then([guest]);
    given(subscriptionDecider).when(request(owner)).then([members]);
    given(subscriptionDecider)
      .when(request({ id: 'sub-1', role: 'subscriber' }))
      .then([requested('sub-1')]);
  });
  it('creates a subscription paused when asked to', () => {
    given(subscriptionDecider)
      .when(request(owner, { isActive: false }))
      .then([members, paused]);
  });
  it('never requests the same subscription twice', () => {
    given(subscriptionDecider, [guest]).when(request(null)).thenThrows('conflict', 'This subscription already exists');
  });
  it('refuses every other command on a subscription that does not exist', () => {
    given(subscriptionDecider)
      .when({ type: 'ConfirmSubscription', data: { tokenHash }, metadata: meta(null) })
      .thenThrows('not_found', 'Subscription not found');
    given(subscriptionDecider)
      .when(update(owner, { frequency: 'daily' }))
      .thenThrows('not_found');
    given(subscriptionDecider)
      .when({ type: 'Unsubscribe', data: { via: 'link', tokenHash }, metadata: meta(null) })
      .thenThrows('not_found');
    given(subscriptionDecider)
      .when({ type: 'RecordDelivery', data: { kind: 'item', itemKey: 'blog:1' }, metadata: meta(null) })
      .thenThrows('not_found');
  });
});

describe('confirming', () => {
  const confirm = (hash = tokenHash): SubscriptionCommand => ({
    type: 'ConfirmSubscription',
    data: { tokenHash: hash },
    metadata: meta(null),
  });
  it('confirms with the right token, once', () => {
    given(subscriptionDecider, [guest]).when(confirm()).then([confirmed]);
    given(subscriptionDecider, [guest, confirmed]).when(confirm()).then([]);
    given(subscriptionDecider, [members]).when(confirm()).then([]);
  });
  it('treats a wrong token as an unknown link', () => {
    given(subscriptionDecider, [guest])
      .when(confirm('b'.repeat(64)))
      .thenThrows('not_found', INVALID_LINK);
  });
  it('does not bring back an ended subscription', () => {
    given(subscriptionDecider, [guest, unsubscribed]).when(confirm()).thenThrows('rule', SUBSCRIPTION_ENDED);
  });
});

describe('changing frequency and pausing', () => {
  it('lets the owner change the frequency and pause or resume, in one update', () => {
    given(subscriptionDecider, [members])
      .when(update(owner, { frequency: 'daily' }))
      .then([{ type: 'SubscriptionFrequencyChanged', data: { frequency: 'daily', previous: 'weekly', at } }]);
    given(subscriptionDecider, [members])
      .when(update(owner, { isActive: false, frequency: 'immediate' }))
      .then([{ type: 'SubscriptionFrequencyChanged', data: { frequency: 'immediate', previous: 'weekly', at } }, paused]);
    given(subscriptionDecider, [members, paused])
      .when(update(owner, { isActive: true }))
      .then([{ type: 'SubscriptionResumed', data: { at } }]);
  });
  it('does nothing when nothing changes', () => {
    given(subscriptionDecider, [members])
      .when(update(owner, { frequency: 'weekly', isActive: true }))
      .then([]);
    given(subscriptionDecider, [members, paused])
      .when(update(owner, { isActive: false }))
      .then([]);
    given(subscriptionDecider, [members]).when(update(owner, {})).then([]);
  });
  it('lets nobody else change it, staff and admins included', () => {
    given(subscriptionDecider, [members])
      .when(update(other, { frequency: 'daily' }))
      .thenThrows('forbidden', 'You can only change your own subscriptions');
    given(subscriptionDecider, [members])
      .when(update(staff, { isActive: false }))
      .thenThrows('forbidden');
    given(subscriptionDecider, [members])
      .when(update(admin, { isActive: false }))
      .thenThrows('forbidden');
    given(subscriptionDecider, [members])
      .when(update(null, { isActive: false }))
      .thenThrows('unauthenticated');
  });
  it('leaves a guest’s subscription to its link', () => {
    given(subscriptionDecider, [guest, confirmed])
      .when(update(owner, { frequency: 'daily' }))
      .thenThrows('forbidden');
  });
  it('resumes nothing after an unsubscribe', () => {
    given(subscriptionDecider, [members, unsubscribed])
      .when(update(owner, { isActive: true }))
      .thenThrows('rule', SUBSCRIPTION_ENDED);
    given(subscriptionDecider, [members, unsubscribed])
      .when(update(owner, { frequency: 'daily' }))
      .thenThrows('rule', SUBSCRIPTION_ENDED);
  });
});

describe('unsubscribing', () => {
  const byLink = (via: 'link' | 'one_click', hash = tokenHash): SubscriptionCommand => ({
    type: 'Unsubscribe',
    data: { via, tokenHash: hash },
    metadata: meta(null),
  });
  const bySettings = (actor: Actor | null): SubscriptionCommand => ({
    type: 'Unsubscribe',
    data: { via: 'settings' },
    metadata: meta(actor),
  });

  it('ends a subscription from its link, a one-click POST or the owner’s settings', () => {
    given(subscriptionDecider, [guest, confirmed]).when(byLink('link')).then([unsubscribed]);
    given(subscriptionDecider, [guest, confirmed])
      .when(byLink('one_click'))
      .then([{ type: 'Unsubscribed', data: { via: 'one_click', at } }]);
    given(subscriptionDecider, [members])
      .when(bySettings(owner))
      .then([{ type: 'Unsubscribed', data: { via: 'settings', at } }]);
  });
  it('lets a guest who never confirmed unsubscribe too', () => {
    given(subscriptionDecider, [guest]).when(byLink('link')).then([unsubscribed]);
  });
  it('is a no-op the second time', () => {
    given(subscriptionDecider, [members, unsubscribed]).when(byLink('one_click')).then([]);
    given(subscriptionDecider, [members, unsubscribed]).when(bySettings(owner)).then([]);
  });
  it('refuses a wrong token and anyone but the owner in settings', () => {
    given(subscriptionDecider, [members])
      .when(byLink('link', 'c'.repeat(64)))
      .thenThrows('not_found', INVALID_LINK);
    given(subscriptionDecider, [members, unsubscribed])
      .when(byLink('link', 'c'.repeat(64)))
      .thenThrows('not_found', INVALID_LINK);
    given(subscriptionDecider, [members]).when(bySettings(staff)).thenThrows('forbidden');
    given(subscriptionDecider, [members]).when(bySettings(null)).thenThrows('unauthenticated');
    given(subscriptionDecider, [guest]).when(bySettings(owner)).thenThrows('forbidden');
  });
});

describe('deliveries and bounces', () => {
  const record = (itemKey: string, actor: Actor | null = null): SubscriptionCommand => ({
    type: 'RecordDelivery',
    data: { kind: 'item', itemKey },
    metadata: meta(actor),
  });
  const bounce = (actor: Actor | null = null): SubscriptionCommand => ({
    type: 'RecordBounce',
    data: { reason: '550 mailbox unavailable' },
    metadata: meta(actor),
  });
  const bounced: SubscriptionEvent = { type: 'EmailBounced', data: { reason: '550 mailbox unavailable', at } };

  it('records each delivery once', () => {
    given(subscriptionDecider, [members])
      .when(record('blog:1'))
      .then([delivered('blog:1')]);
    given(subscriptionDecider, [members, delivered('blog:1')])
      .when(record('blog:1'))
      .then([]);
    given(subscriptionDecider, [members, delivered('blog:1')])
      .when(record('blog:2'))
      .then([delivered('blog:2')]);
    given(subscriptionDecider, [members, delivered('blog:1')])
      .when({ type: 'RecordDelivery', data: { kind: 'digest', itemKey: 'blog:1' }, metadata: meta(null) })
      .then([{ type: 'EmailDelivered', data: { kind: 'digest', itemKey: 'blog:1', at } }]);
  });
  it('records a delivery that went out just before an unsubscribe', () => {
    given(subscriptionDecider, [members, unsubscribed])
      .when(record('blog:1'))
      .then([delivered('blog:1')]);
  });
  it('records every bounce', () => {
    given(subscriptionDecider, [members, bounced]).when(bounce()).then([bounced]);
  });
  it('takes deliveries and bounces from the mail service only', () => {
    given(subscriptionDecider, [members]).when(record('blog:1', owner)).thenThrows('forbidden');
    given(subscriptionDecider, [members]).when(bounce(admin)).thenThrows('forbidden');
  });
});

describe('selectors', () => {
  const state = (...events: SubscriptionEvent[]) => fold(subscriptionDecider, events);
  const bounced: SubscriptionEvent = { type: 'EmailBounced', data: { reason: 'x', at } };

  it('tells where a subscription stands and whether mail may go to it', () => {
    expect([subscriptionStatus(state()), isDeliverable(state())]).toEqual(['none', false]);
    expect([subscriptionStatus(state(guest)), isDeliverable(state(guest))]).toEqual(['pending', false]);
    expect([subscriptionStatus(state(guest, confirmed)), isDeliverable(state(guest, confirmed))]).toEqual(['active', true]);
    expect([subscriptionStatus(state(members, paused)), isDeliverable(state(members, paused))]).toEqual(['paused', false]);
    expect([subscriptionStatus(state(members, unsubscribed)), isDeliverable(state(members, unsubscribed))]).toEqual([
      'unsubscribed',
      false,
    ]);
  });
  it('stops mail after three bounces', () => {
    expect(isDeliverable(state(members, bounced, bounced))).toBe(true);
    expect(isDeliverable(state(members, bounced, bounced, bounced))).toBe(false);
  });
  it('sends blog posts and newsfeed items to their own type and to all', () => {
    expect(coversContent('all', 'blog_posts')).toBe(true);
    expect(coversContent('blog_posts', 'blog_posts')).toBe(true);
    expect(coversContent('newsfeed', 'blog_posts')).toBe(false);
  });
});

describe('subscription bodies', () => {
  it('normalise the guest’s address and require a type and frequency', () => {
    expect(v.parse(GuestSubscribeSchema, { email: ' Ada@Example.ORG ', subscriptionType: 'all', frequency: 'daily' })).toEqual({
      email: 'ada@example.org',
      subscriptionType: 'all',
      frequency: 'daily',
    });
    const result = v.safeParse(GuestSubscribeSchema, { email: 'nope', subscriptionType: 'newsletter', frequency: 'hourly' });
    expect(result.success ? {} : Object.fromEntries(result.issues.map((issue) => [v.getDotPath(issue), issue.message]))).toEqual({
      email: 'Enter a valid email address',
      subscriptionType: 'Choose blog_posts, newsfeed or all',
      frequency: 'Choose immediate, daily or weekly',
    });
  });
  it('create active by default and update either field', () => {
    expect(v.parse(NewSubscriptionSchema, { subscriptionType: 'newsfeed', frequency: 'immediate' })).toEqual({
      subscriptionType: 'newsfeed',
      frequency: 'immediate',
      isActive: true,
    });
    expect(v.parse(SubscriptionUpdateSchema, { isActive: false })).toEqual({ isActive: false });
    expect(v.safeParse(SubscriptionUpdateSchema, { frequency: 'monthly' }).success).toBe(false);
  });
  it('accept only 43-character base64url tokens', () => {
    expect(v.safeParse(TokenSchema, 'A'.repeat(42) + '_').success).toBe(true);
    expect(v.safeParse(TokenSchema, 'A'.repeat(42)).success).toBe(false);
    expect(v.safeParse(TokenSchema, `${'A'.repeat(42)}=`).success).toBe(false);
  });
  it('label the newsletter type the unsubscribe page knows', () => {
    expect(SUBSCRIPTION_TYPE_LABELS.newsletter).toBe('Newsletter');
  });
});

describe('a guest subscription of an erased member’s address', () => {
  const erase = (actor: Actor | null, email = 'ada@example.org'): SubscriptionCommand => ({
    type: 'EraseSubscription',
    data: { email },
    metadata: meta(actor),
  });
  const erased: SubscriptionEvent = { type: 'SubscriptionErased', data: { at } };

  it('ends, pending or confirmed, when the account of its address is erased; once', () => {
    given(subscriptionDecider, [guest]).when(erase(owner)).then([erased]);
    given(subscriptionDecider, [guest, confirmed]).when(erase(owner)).then([erased]);
    given(subscriptionDecider, [guest, confirmed, unsubscribed]).when(erase(owner)).then([erased]);
    given(subscriptionDecider, [guest, confirmed, erased]).when(erase(owner)).then([]);
  });

  it('is refused for another address, a member’s own subscription, or nobody', () => {
    given(subscriptionDecider, [guest, confirmed]).when(erase(owner, 'eve@example.org')).thenThrows('forbidden');
    given(subscriptionDecider, [members]).when(erase(owner)).thenThrows('forbidden');
    given(subscriptionDecider, [guest]).when(erase(null)).thenThrows('unauthenticated');
  });

  it('mails nothing more and forgets its address', () => {
    const state = fold(subscriptionDecider, [guest, confirmed, erased]);
    expect(isDeliverable(state)).toBe(false);
    expect(state.email).toBe('');
    given(subscriptionDecider, [guest, erased])
      .when({ type: 'ConfirmSubscription', data: { tokenHash }, metadata: meta(null) })
      .thenThrows('rule', SUBSCRIPTION_ENDED);
  });
});
