/**
 * /discussions: the categories (each a filter, with its colour, description and topic count), the topic list
 * (pinned first, then the latest activity; unread ones bold with how many replies are new), filtered by category,
 * tag and a search, a page at a time, and the "New topic" dialog. A new topic or reply reaches the list by push.
 */
import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { LoadFailed, Loading } from '../../components/load-state';
import { useSearch } from '../../components/search-box';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/page-header';
import { LoadMore } from '../../lib/paged-list';
import { relativeTime } from '../../lib/relative-time';
import { useCategories, useTopics, type Category, type TopicRow } from './api';
import { NewTopicDialog } from './new-topic-dialog';
import { CategoriesState, CategoryMark, fieldClass } from './parts';

export interface DiscussionsSearch {
  category?: string | undefined;
  tag?: string | undefined;
}

function CategoryFilter({
  categories,
  chosen,
  choose,
}: {
  categories: Category[];
  chosen: string | undefined;
  choose: (id: string | undefined) => void;
}) {
  const chip = (active: boolean) =>
    `flex min-h-11 w-64 shrink-0 snap-start items-start gap-3 rounded-lg border p-3 text-left outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-amber-500 sm:w-auto sm:min-w-0 ${
      active
        ? 'border-brand-600 bg-brand-50 dark:border-amber-accent dark:bg-slate-800'
        : 'border-slate-200 bg-white hover:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:bg-slate-800'
    }`;
  return (
    // On a phone the categories are one row that scrolls sideways, so the topics stay near the top.
    <div
      role="group"
      aria-label="Categories"
      className="-mx-4 flex snap-x scroll-px-4 gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 xl:grid-cols-3"
    >
      <button type="button" aria-pressed={chosen === undefined} onClick={() => choose(undefined)} className={chip(chosen === undefined)}>
        <span aria-hidden="true" className="mt-1 size-3 shrink-0 rounded-sm bg-slate-400" />
        <span className="min-w-0">
          <span className="block font-semibold">All categories</span>
          <span className="block text-sm text-slate-600 dark:text-slate-400">Every topic, latest activity first</span>
        </span>
      </button>
      {categories.map((category) => (
        <button
          key={category.id}
          type="button"
          aria-pressed={chosen === category.id}
          onClick={() => choose(chosen === category.id ? undefined : category.id)}
          className={chip(chosen === category.id)}
        >
          <span aria-hidden="true" className="mt-1 size-3 shrink-0 rounded-sm" style={{ backgroundColor: category.color }} />
          <span className="min-w-0 flex-1">
            <span className="flex items-baseline justify-between gap-2">
              <span className="truncate font-semibold">{category.name}</span>
              <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
                {category.topicCount} {category.topicCount === 1 ? 'topic' : 'topics'}
              </span>
            </span>
            {category.description && (
              <span className="line-clamp-2 block text-sm text-slate-600 dark:text-slate-400">{category.description}</span>
            )}
          </span>
        </button>
      ))}
    </div>
  );
}

/** What is unread in a topic: how many replies, or the whole topic when it is new to the reader. */
const unreadLabel = (topic: TopicRow) =>
  topic.unread > 0 ? `${topic.unread} unread ${topic.unread === 1 ? 'reply' : 'replies'}` : 'new topic';

function TopicListItem({ topic, onTag }: { topic: TopicRow; onTag: (tag: string) => void }) {
  const unread = topic.unread > 0 || topic.new;
  const last = topic.activeAt;
  return (
    <li className="flex gap-3 px-4 py-3">
      <span
        aria-hidden="true"
        className="mt-1.5 w-1 shrink-0 self-stretch rounded-full"
        style={{ backgroundColor: topic.category.color }}
      />
      <div className="min-w-0 flex-1">
        <div className="flex items-start gap-2">
          <Link
            to="/discussions/topics/$id"
            params={{ id: topic.id }}
            className={`min-w-0 flex-1 rounded-sm break-words outline-none hover:underline focus-visible:ring-2 focus-visible:ring-amber-500 ${unread ? 'font-bold' : 'font-medium'}`}
          >
            {topic.pinned && <span className="sr-only">Pinned: </span>}
            {topic.title}
            {unread && <span className="sr-only"> ({unreadLabel(topic)})</span>}
          </Link>
          {unread && (
            <span
              aria-hidden="true"
              title={unreadLabel(topic)}
              className="shrink-0 rounded-full bg-brand-600 px-2 text-xs leading-5 font-semibold text-white dark:bg-amber-accent dark:text-slate-950"
            >
              {topic.unread > 0 ? topic.unread : 'new'}
            </span>
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
          <CategoryMark name={topic.category.name} color={topic.category.color} />
          {topic.pinned && <Badge variant="default">Pinned</Badge>}
          {topic.locked && <Badge variant="outline">Closed</Badge>}
          <span>by {topic.author.name}</span>
          <span>
            {topic.replyCount} {topic.replyCount === 1 ? 'reply' : 'replies'}
          </span>
          <time dateTime={last} title={new Date(last).toLocaleString()}>
            {relativeTime(last)}
          </time>
          {topic.tags.map((tag) => (
            <button
              key={tag}
              type="button"
              onClick={() => onTag(tag)}
              aria-label={`Topics tagged ${tag}`}
              className="min-h-6 rounded-full bg-slate-100 px-2 text-slate-700 outline-none hover:bg-slate-200 focus-visible:ring-2 focus-visible:ring-amber-500 dark:bg-slate-800 dark:text-slate-300"
            >
              #{tag}
            </button>
          ))}
        </div>
      </div>
    </li>
  );
}

export function DiscussionsPage({ search }: { search: DiscussionsSearch }) {
  const navigate = useNavigate();
  const topicSearch = useSearch({
    label: 'Search topics',
    placeholder: 'Search topics and replies...',
    className: `${fieldClass} min-w-0 flex-1 basis-60`,
  });
  const q = topicSearch.q;
  const [starting, setStarting] = useState(false);
  const categories = useCategories();
  const { list, items } = useTopics({ category: search.category, tag: search.tag, q });
  const setSearch = (next: DiscussionsSearch) => void navigate({ to: '/discussions', search: next, replace: true });
  const chosen = categories.data?.find((category) => category.id === search.category);
  const filtered = Boolean(search.category || search.tag || q);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold md:text-3xl">Discussions</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            Long conversations about stations, people and the programmes we remember.
          </p>
        </div>
        <Button onPress={() => setStarting(true)} isDisabled={!categories.data?.length}>
          New topic
        </Button>
      </div>

      <CategoriesState categories={categories}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No categories yet">Staff open the first category in the admin dashboard; topics then go in it.</EmptyState>
          ) : (
            <CategoryFilter categories={list} chosen={search.category} choose={(category) => setSearch({ ...search, category })} />
          )
        }
      </CategoriesState>

      <div className="flex flex-wrap items-center gap-2">
        {topicSearch.box}
        {search.tag && (
          <button
            type="button"
            onClick={() => setSearch({ ...search, tag: undefined })}
            aria-label={`Remove the filter: tag ${search.tag}`}
            className="inline-flex min-h-11 items-center gap-2 rounded-full border border-brand-600 bg-brand-50 px-4 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-amber-accent dark:bg-slate-800"
          >
            #{search.tag} <span aria-hidden="true">×</span>
          </button>
        )}
      </div>

      <section
        aria-label={chosen ? `Topics in ${chosen.name}` : 'Topics'}
        aria-busy={list.isFetching && !list.isFetchingNextPage}
        className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        {list.isPending ? (
          <Loading className="p-6">Loading topics...</Loading>
        ) : list.isError ? (
          <LoadFailed className="p-6">The topics could not be loaded. Please refresh the page.</LoadFailed>
        ) : items.length === 0 ? (
          <p className="p-8 text-center text-slate-600 dark:text-slate-400">
            {filtered ? 'No topics match.' : 'No topics yet. Start the first conversation!'}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {items.map((topic) => (
              <TopicListItem key={topic.id} topic={topic} onTag={(tag) => setSearch({ ...search, tag })} />
            ))}
          </ul>
        )}
      </section>
      <LoadMore list={list} label="Load more topics" />

      {starting && categories.data && (
        <NewTopicDialog
          categories={categories.data}
          initialCategory={search.category}
          onClose={() => setStarting(false)}
          onStarted={(id) => {
            setStarting(false);
            void navigate({ to: '/discussions/topics/$id', params: { id } });
          }}
        />
      )}
    </div>
  );
}
