import { describe, it } from 'vitest';
import type { Actor } from '../../../shared/domain';
import { bookmarkDecider, type BookmarkCommand, type BookmarkEvent } from '../../../shared/bookmarks/bookmark-stream';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(bookmarkDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const member: Actor = { id: 'member-1', role: 'member' };
const item = { memberId: member.id, kind: 'event' as const, id: 'event-1' };
const command = (type: BookmarkCommand['type'], actor: Actor | null = member): BookmarkCommand => ({
  type,
  data: item,
  metadata: { now, actor },
});
const saved: BookmarkEvent = { type: 'BookmarkSaved', data: { ...item, at: now.toISOString() } };

describe('bookmarks', () => {
  it('save once and unsave once', () => {
    spec.given().when(command('SaveBookmark')).then([saved]);
    spec.given([saved]).when(command('SaveBookmark')).then([]);
    spec
      .given([saved])
      .when(command('RemoveBookmark'))
      .then([{ type: 'BookmarkRemoved', data: item }]);
    spec
      .given([saved, { type: 'BookmarkRemoved', data: item }])
      .when(command('RemoveBookmark'))
      .then([]);
    spec
      .given([saved, { type: 'BookmarkSaved', data: { ...item, id: 'event-2', at: now.toISOString() } }])
      .when(command('SaveBookmark'))
      .then([]);
  });
  it('are the member’s own', () => {
    spec
      .given()
      .when(command('SaveBookmark', { id: 'other', role: 'admin' }))
      .thenThrows('forbidden', 'You can only change your own bookmarks');
    spec.given().when(command('SaveBookmark', null)).thenThrows('unauthenticated');
  });
});
