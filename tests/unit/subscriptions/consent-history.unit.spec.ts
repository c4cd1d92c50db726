/** The consent record (`history`) of the subscriptions read model: which deliveries it lists. */
import { describe, expect, it } from 'vitest';
import { evolveDocument } from '../../../projections/subscriptions/subscriptions';

const requested = evolveDocument(null, {
  type: 'SubscriptionRequested',
  data: {
    id: 's1',
    email: 'guest@example.org',
    memberId: null,
    subscriptionType: 'all',
    frequency: 'weekly',
    tokenHash: 'h'.repeat(64),
    confirmationRequired: true,
    at: '2026-11-22T10:00:00.000Z',
  },
});

describe('consent history', () => {
  it('lists when the confirmation link went out, at the time its delivery was recorded', () => {
    const sent = evolveDocument(requested, {
      type: 'EmailDelivered',
      data: { kind: 'confirmation', itemKey: 's1', at: '2026-11-22T10:00:02.000Z' },
    });
    expect(sent!.history).toEqual([
      { event: 'requested', at: '2026-11-22T10:00:00.000Z', detail: 'guest' },
      { event: 'confirmation_sent', at: '2026-11-22T10:00:02.000Z' },
    ]);
    expect(sent!.status).toBe('pending');
  });

  it('leaves item and digest mail out: it says nothing about consent', () => {
    for (const kind of ['item', 'digest'] as const)
      expect(evolveDocument(requested, { type: 'EmailDelivered', data: { kind, itemKey: 'x', at: '2026-11-22T11:00:00.000Z' } })).toBe(
        requested,
      );
  });
});
