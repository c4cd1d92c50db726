/**
 * Bookmarks' read model (docs/domain/bookmarks.md): `bookmarks`, one document per saved item, keyed
 * `<member>:<kind>:<id>`. An erased member's go.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import type { BookmarkKind } from '../../shared/bookmarks/schemas';
import { ROOMS } from '../../shared/socket-messages';

export const BOOKMARKS = 'bookmarks';

export type BookmarkDocument = Positioned & { _id: string; memberId: string; kind: BookmarkKind; itemId: string; savedAt: string };

export const bookmarksCollection = (store: DocumentStore) => store.collection<BookmarkDocument>(BOOKMARKS);

export const bookmarksProjection: Projection = {
  name: 'bookmarks',
  version: 1,
  collections: [BOOKMARKS],
  async setup(store) {
    await bookmarksCollection(store).createIndex({ memberId: 1, savedAt: -1, _id: -1 });
  },
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member' && typed.event.type === 'MemberErased') {
      const bookmarks = bookmarksCollection(store);
      for (const { _id } of await bookmarks.find({ memberId: typed.id }, { fields: ['_id'] }))
        await applyToDocument(bookmarks, _id, recorded.position, () => null);
      return;
    }
    if (typed?.stream !== 'bookmarks') return;
    const { event } = typed;
    const { memberId, kind, id } = event.data;
    await applyToDocument(bookmarksCollection(store), `${memberId}:${kind}:${id}`, recorded.position, () =>
      event.type === 'BookmarkSaved' ? { memberId, kind, itemId: id, savedAt: event.data.at } : null,
    );
    notify({ message: 'bookmarks:changed', rooms: [ROOMS.member(memberId)], payload: {} });
  },
};
