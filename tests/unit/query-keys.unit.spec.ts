/** A typed read's key is the key its address gives, so the socket's invalidations by address prefix still reach it. */
import { describe, expect, it } from 'vitest';
import { apiKey, operationKey } from '../../client/lib/query-keys';

describe('operationKey', () => {
  it('gives the key of the address the operation reads', () => {
    expect(operationKey('/api/posts/{id}/comments', { path: { id: 'a b' } })).toEqual(
      apiKey(`/api/posts/${encodeURIComponent('a b')}/comments`),
    );
    expect(operationKey('/api/notifications', { query: { limit: '1' } })).toEqual(apiKey('/api/notifications?limit=1'));
    expect(operationKey('/api/admin/stats')).toEqual(apiKey('/api/admin/stats'));
  });

  it('leaves out query params that are not set, as an address would', () => {
    expect(operationKey('/api/posts', { query: { filter: 'all', q: undefined } })).toEqual(apiKey('/api/posts?filter=all'));
  });

  it('lies below the prefix a change notice names', () => {
    const key = operationKey('/api/members/{id}', { path: { id: 'm1' } });
    expect(key.slice(0, apiKey('/api/members').length)).toEqual(apiKey('/api/members'));
  });
});
