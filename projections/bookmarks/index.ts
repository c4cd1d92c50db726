/** Bookmarks' read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { bookmarksProjection, bookmarksCollection, type BookmarkDocument } from './bookmarks';
