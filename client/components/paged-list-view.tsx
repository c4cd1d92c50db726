/**
 * A paged list on its page (client/lib/paged-list.tsx): a spinner while its first page is read, an alert when it
 * could not be, what an empty list says, else the list itself; under it, "Load more" while pages remain.
 */
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { LoadMore } from '../lib/paged-list';
import { EmptyState } from './ui/page-header';
import { Spinner } from './ui/spinner';

export function PagedListView({
  list,
  loading,
  failed,
  isEmpty,
  empty,
  loadMoreLabel,
  children,
}: {
  list: { isPending: boolean; isError: boolean; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  /** The spinner's label: "Loading bookmarks". */
  loading: string;
  /** "Your bookmarks could not be loaded. Please refresh the page." */
  failed: string;
  /** Nothing to show (of what was read, or of what a search kept). */
  isEmpty: boolean;
  empty: ReactNode;
  /** The button's label ("Load more" unless said). */
  loadMoreLabel?: string;
  children: ReactNode;
}) {
  return (
    <>
      {list.isPending ? <Spinner label={loading} /> : list.isError ? <p role="alert">{failed}</p> : isEmpty ? empty : children}
      <LoadMore list={list} label={loadMoreLabel} />
    </>
  );
}

/** An empty list of the member's own (bookmarks, notifications): what is missing, what would fill it, the way back. */
export function EmptyBackToFeed({ title, children }: { title: string; children: ReactNode }) {
  return (
    <EmptyState title={title}>
      {children}{' '}
      <Link to="/" className="underline">
        Back to the newsfeed
      </Link>
    </EmptyState>
  );
}
