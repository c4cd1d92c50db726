/** A member's bookmarks (stream `bookmarks-<memberId>`): saved and unsaved, each at most once. */
import { type CommandMetadata, type Decider, fail } from '../domain';
import type { BookmarkKind } from './schemas';

type Item = { memberId: string; kind: BookmarkKind; id: string };
export type BookmarkEvent = { type: 'BookmarkSaved'; data: Item & { at: string } } | { type: 'BookmarkRemoved'; data: Item };
export type BookmarkCommand = { type: 'SaveBookmark' | 'RemoveBookmark'; data: Item; metadata: CommandMetadata };

const key = ({ kind, id }: Pick<Item, 'kind' | 'id'>) => `${kind}:${id}`;

export const bookmarkDecider: Decider<ReadonlySet<string>, BookmarkCommand, BookmarkEvent> = {
  initialState: () => new Set(),
  evolve(saved, event) {
    const next = new Set(saved);
    if (event.type === 'BookmarkSaved') next.add(key(event.data));
    else next.delete(key(event.data));
    return next;
  },
  decide(command, saved) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    const { memberId, kind, id } = command.data;
    if (actor.id !== memberId) throw fail.forbidden('You can only change your own bookmarks');
    const has = saved.has(key(command.data));
    if (command.type === 'SaveBookmark') return has ? [] : [{ type: 'BookmarkSaved', data: { memberId, kind, id, at: now.toISOString() } }];
    return has ? [{ type: 'BookmarkRemoved', data: { memberId, kind, id } }] : [];
  },
};
