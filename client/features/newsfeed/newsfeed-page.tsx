/**
 * The newsfeed: composer, search, filter chips with live counts, post cards
 * paged by cursor, trending tags and community stats. New posts arrive by push;
 * a reader who has scrolled down sees a "N new posts" pill instead of a jump.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { LoadFailed, Loading } from '../../components/load-state';
import { useSearch } from '../../components/search-box';
import { Button } from '../../components/ui/button';
import { useCurrentUser, type CurrentUser } from '../../lib/current-user';
import { Composer } from './composer';
import { PostCard } from './post-card';
import { useCommunityStats, useFeed, useFilterCount, useOnlineMembers, type FeedFilter, type Post } from './api';
import { splitNewPosts } from './new-posts';
import { useKeepReach } from '../../lib/paged-list';

type Filter = FeedFilter;

/** The feed's order, as the server sorts it: pinned first, then newest. */
const comesBeforeInFeed = (a: Post, b: Post) =>
  a.isPinned !== b.isPinned ? a.isPinned : a.createdAt !== b.createdAt ? a.createdAt > b.createdAt : a.id > b.id;
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All Posts' },
  { value: 'trending', label: 'Trending' },
  { value: 'following', label: 'Following' },
];

function Feed({ user }: { user: CurrentUser }) {
  const search = useSearch({
    label: 'Search posts',
    placeholder: 'Search posts, users, tags...',
    className: 'min-h-11 flex-1 rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900',
  });
  const q = search.q;
  const [filter, setFilter] = useState<Filter>('all');
  const [showFilters, setShowFilters] = useState(true);

  const { list: feed, items: posts } = useFeed(filter, q);
  useKeepReach(feed, posts, comesBeforeInFeed, `${filter} ${q}`);
  const trendingCount = useFilterCount('trending');
  const followingCount = useFilterCount('following');
  const stats = useCommunityStats();
  const online = useOnlineMembers(user.role === 'admin' || user.role === 'staff');
  const onlineIds = useMemo(() => online.data ?? new Set<string>(), [online.data]);

  // Posts that arrive while the reader is scrolled down wait behind a pill, so the page does not jump.
  const [seen, setSeen] = useState<Set<string> | null>(null);
  const scrolledDown = useRef(false);
  useEffect(() => {
    const onScroll = () => (scrolledDown.current = window.scrollY > 300);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  // A new search or filter starts over. Declared before the effect below: effects run in order, and on a remount
  // with the posts already cached both run at once, so the reset must not come last and leave nothing seen.
  useEffect(() => setSeen(null), [filter, q]);
  useEffect(() => {
    if (!feed.data) return;
    setSeen((current) => (current && scrolledDown.current ? current : new Set(posts.map((post) => post.id))));
  }, [feed.data, posts]);
  const { fresh, shown } = seen ? splitNewPosts(posts, seen) : { fresh: [], shown: posts };
  const revealNew = () => {
    setSeen(new Set(posts.map((post) => post.id)));
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  const counts: Record<Filter, number | undefined> = { all: undefined, trending: trendingCount.data, following: followingCount.data };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 space-y-4">
        <h1 className="text-2xl font-bold md:text-3xl">Broadcast History Newsfeed</h1>
        <div className="flex gap-2">
          {search.box}
          <Button variant="secondary" aria-expanded={showFilters} onPress={() => setShowFilters(!showFilters)}>
            Filter
          </Button>
        </div>
        {showFilters && (
          <div role="group" aria-label="Filter posts" className="flex flex-wrap gap-2">
            {FILTERS.map(({ value, label }) => (
              <button
                key={value}
                type="button"
                aria-pressed={filter === value}
                onClick={() => setFilter(value)}
                className={`min-h-11 rounded-full border px-4 text-sm font-medium ${filter === value ? 'border-brand-600 bg-brand-600 text-white dark:border-amber-accent dark:bg-amber-accent dark:text-slate-950' : 'border-slate-300 dark:border-slate-600'}`}
              >
                {label}
                {counts[value] !== undefined && (
                  <span className="ml-2 rounded-full bg-black/10 px-2 text-xs dark:bg-white/20">{counts[value]}</span>
                )}
              </button>
            ))}
          </div>
        )}
        <Composer user={user} />
        {/* Always there and zero high, the pill floats over the posts: its appearance must not push them down (browsers
            without scroll anchoring would jump, and with it the scroll position changes under the reader). Being always
            there, it can also be the live region that tells screen reader users about new posts. */}
        <div aria-live="polite" className="sticky top-16 z-20 flex h-0 justify-center">
          {fresh.length > 0 && (
            <button
              type="button"
              onClick={revealNew}
              className="min-h-11 shrink-0 rounded-full bg-brand-600 px-4 text-sm font-semibold text-white shadow-lg dark:bg-amber-accent dark:text-slate-950"
            >
              {fresh.length} new post{fresh.length === 1 ? '' : 's'}
            </button>
          )}
        </div>
        {feed.isPending ? (
          <Loading>Loading posts...</Loading>
        ) : feed.isError ? (
          <LoadFailed>The newsfeed could not be loaded. Please refresh the page.</LoadFailed>
        ) : shown.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
            {q || filter !== 'all' ? 'No posts match.' : 'No posts yet. Share the first memory!'}
          </p>
        ) : (
          <div className="space-y-4">
            {shown.map((post) => (
              <PostCard key={post.id} post={post} viewer={user} onlineIds={onlineIds} />
            ))}
          </div>
        )}
        {feed.hasNextPage && (
          <div className="flex justify-center">
            <Button variant="secondary" onPress={() => void feed.fetchNextPage()} isDisabled={feed.isFetchingNextPage}>
              {feed.isFetchingNextPage ? 'Loading...' : 'Load More Posts'}
            </Button>
          </div>
        )}
      </div>
      <aside aria-label="Community" className="space-y-4">
        <section className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <h2 className="font-semibold">Trending tags</h2>
          {stats.data?.trendingTags.length ? (
            <ul className="mt-2 flex flex-wrap gap-2">
              {stats.data.trendingTags.map(({ tag, count }) => (
                <li key={tag}>
                  <button
                    type="button"
                    onClick={() => search.setText(`#${tag}`)}
                    className="min-h-11 rounded-full bg-brand-50 px-3 text-sm text-brand-700 hover:bg-brand-100 dark:bg-slate-800 dark:text-amber-accent"
                  >
                    #{tag} <span className="text-xs opacity-70">{count}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No tags yet.</p>
          )}
        </section>
        <section className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <h2 className="font-semibold">Community stats</h2>
          <dl className="mt-2 space-y-1 text-sm">
            {[
              ['Total posts', stats.data?.totalPosts],
              ['Active members', stats.data?.activeMembers],
              ['Online now', stats.data?.onlineNow],
            ].map(([label, value]) => (
              <div key={label as string} className="flex justify-between">
                <dt>{label}</dt>
                <dd className="font-semibold">{value === undefined ? '—' : Number(value).toLocaleString('en-US')}</dd>
              </div>
            ))}
          </dl>
        </section>
      </aside>
    </div>
  );
}

export function NewsfeedPage() {
  const { data: user } = useCurrentUser();
  return user ? <Feed user={user} /> : null;
}
