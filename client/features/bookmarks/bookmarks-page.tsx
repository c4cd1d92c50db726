/** /bookmarks: what I saved, newest first, each as it is now (a removed item says so; I may unsave it). */
import type { Bookmark } from '../../../shared/bookmarks/schemas';
import { BookmarkButton } from '../../components/bookmark-button';
import { EmptyBackToFeed, PagedListView } from '../../components/paged-list-view';
import { PageHeader } from '../../components/ui/page-header';
import { Badge } from '../../components/ui/badge';
import { usePages } from '../../lib/paged-list';
import { relativeTime } from '../../lib/relative-time';

const KIND_LABEL = { post: 'Post', event: 'Event', blog: 'Blog post' } as const;

function Saved({ bookmark }: { bookmark: Bookmark }) {
  const { item } = bookmark;
  return (
    <li
      aria-label={`${KIND_LABEL[bookmark.kind]}: ${item.title}`}
      className="flex flex-wrap items-start gap-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
          <Badge variant="outline">{KIND_LABEL[bookmark.kind]}</Badge>
          {item.cancelled && <Badge variant="destructive">Cancelled</Badge>}
          <span>
            saved <time dateTime={bookmark.savedAt}>{relativeTime(bookmark.savedAt)}</time>
          </span>
        </p>
        {item.removed ? (
          <p className="mt-1 text-slate-600 italic dark:text-slate-400">
            This {KIND_LABEL[bookmark.kind].toLowerCase()} was removed or is no longer shown.
          </p>
        ) : (
          <>
            <a href={item.link} className="mt-1 block font-semibold break-words hover:underline">
              {item.title}
            </a>
            {item.excerpt && <p className="mt-1 text-sm break-words text-slate-700 dark:text-slate-300">{item.excerpt}</p>}
          </>
        )}
      </div>
      <BookmarkButton
        kind={bookmark.kind}
        id={bookmark.id}
        label={item.removed ? `removed ${KIND_LABEL[bookmark.kind].toLowerCase()}` : item.title}
      />
    </li>
  );
}

export function BookmarksPage() {
  const { list, items } = usePages('/api/bookmarks', undefined);
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Bookmarks" description="Posts, events and blog posts you saved." />
      <PagedListView
        list={list}
        loading="Loading bookmarks"
        failed="Your bookmarks could not be loaded. Please refresh the page."
        isEmpty={items.length === 0}
        empty={
          <EmptyBackToFeed title="Nothing saved yet">Press ☆ Save on a post, an event or a blog post to keep it here.</EmptyBackToFeed>
        }
      >
        <ul aria-label="Bookmarks" className="space-y-2">
          {items.map((bookmark) => (
            <Saved key={`${bookmark.kind}:${bookmark.id}`} bookmark={bookmark} />
          ))}
        </ul>
      </PagedListView>
    </div>
  );
}
