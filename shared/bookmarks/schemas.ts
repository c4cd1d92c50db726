/** Bookmarks (docs/domain/bookmarks.md): a member's saved feed posts, events and blog posts. */
import * as v from 'valibot';
import { text } from '../text-schema';

export const BOOKMARK_KINDS = ['post', 'event', 'blog'] as const;
export type BookmarkKind = (typeof BOOKMARK_KINDS)[number];
export const BOOKMARK_PAGE_SIZE = 30;

export const BookmarkParams = v.object({
  kind: v.pipe(text(), v.picklist(BOOKMARK_KINDS, 'Bookmarks are of posts, events or blog posts')),
  id: v.pipe(text(), v.uuid('Not found')),
});

export const BookmarkSchema = v.object({
  kind: v.picklist(BOOKMARK_KINDS),
  id: v.string(),
  savedAt: v.string(),
  /** The item as it is now: `removed` when it was deleted or is no longer shown (the page says so). */
  item: v.object({ title: v.string(), excerpt: v.string(), link: v.string(), removed: v.boolean(), cancelled: v.boolean() }),
});
export type Bookmark = v.InferOutput<typeof BookmarkSchema>;
