/**
 * The admin dashboard (/admin, /admin/{tab}, and inside the public-site layout at
 * /admin-webflow): real figures, the live moderation queue and member management.
 */
import { useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Button } from '../../components/ui/button';
import { RoleBadge } from '../../components/ui/badge';
import { Avatar } from '../../components/ui/avatar';
import { ComingSoon, EmptyState } from '../../components/ui/page-header';
import { MemberLink } from '../../components/member-link';
import { StatTile } from '../../components/panel';
import { MediaPreview } from '../../components/media-preview';
import { ReasonDialog } from '../../components/reason-dialog';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { LoadMore } from '../../lib/paged-list';
import { ROLES } from '../../../shared/domain';
import { PRESENCE_STATUSES, type MemberRow } from '../../../shared/members/schemas';
import {
  runAdminAction,
  useAdminStats,
  useMembers,
  usePendingPosts,
  useRefreshAdmin,
  useReports,
  type AdminAction,
  type MemberFilters,
} from './api';
import type { ReportGroup } from '../../../shared/reports/schemas';
import { isStaff, useCurrentUser, type CurrentUser } from '../../lib/current-user';
import { useNarrowScreen } from '../../lib/use-narrow-screen';
import { useDebounced } from '../../lib/use-debounced';

/** What the tabs show that the route gives (the blog, discussions and settings tabs belong to other features), and who looks. */
interface TabParts {
  blogTab?: ReactNode;
  discussionsTab?: ReactNode;
  settingsTab?: ReactNode;
  viewer: CurrentUser;
}

/** The dashboard's tabs, in the nav's order: each one's address, its name, and what it shows. */
const TABS = [
  { id: 'moderation', label: 'Moderation', show: () => <Moderation /> },
  { id: 'reports', label: 'Reported content', show: () => <ReportedContent /> },
  { id: 'blog', label: 'Blog', show: (parts: TabParts) => parts.blogTab },
  { id: 'discussions', label: 'Discussions', show: (parts: TabParts) => parts.discussionsTab },
  { id: 'users', label: 'Users', show: (parts: TabParts) => <Users viewer={parts.viewer} /> },
  { id: 'analytics', label: 'Analytics', show: () => <ComingSoon title="Analytics" /> },
  { id: 'settings', label: 'Settings', show: (parts: TabParts) => parts.settingsTab },
] as const;
type Tab = (typeof TABS)[number]['id'];

function useAdminAction() {
  const refresh = useRefreshAdmin();
  const { toast } = useToast();
  return useMutation({
    mutationFn: ({ action }: { action: AdminAction; done: string }) => runAdminAction(action),
    onSuccess: (_result, { done }) => {
      toast({ title: done });
      void refresh();
    },
    onError: (error) => toast({ title: 'Action failed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
}

function StatCards() {
  const stats = useAdminStats();
  const cards = [
    ['Total Posts', stats.data?.totalPosts],
    ['Active Users', stats.data?.activeUsers],
    ['Pending Approval', stats.data?.pendingApproval],
    ['Reported Content', stats.data?.reportedContent],
  ] as const;
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {cards.map(([label, value]) => (
        <StatTile key={label} label={label} value={value === undefined ? '—' : value.toLocaleString('en-US')} />
      ))}
    </section>
  );
}

function Moderation() {
  const { list: pending, items: posts } = usePendingPosts();
  const act = useAdminAction();
  if (pending.isPending) return <p role="status">Loading pending posts...</p>;
  if (pending.isError) return <p role="alert">The moderation queue could not be loaded.</p>;
  if (posts.length === 0) return <p className="py-8 text-center text-slate-600 dark:text-slate-400">All posts have been reviewed!</p>;
  return (
    <>
      <ul className="space-y-3">
        {posts.map((post) => (
          <li key={post.id} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <p className="text-sm">
              <MemberLink id={post.author.id} name={post.author.name} className="font-semibold" /> <RoleBadge role={post.author.role} /> ·{' '}
              <time dateTime={post.createdAt}>{new Date(post.createdAt).toLocaleString()}</time>
            </p>
            {post.revision && (
              // A held edit of a post already in the feed: Approve puts the edit in the feed, Reject keeps the text below.
              <div className="mt-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-slate-800">
                <p className="text-sm font-semibold">
                  Edit of a published post ·{' '}
                  <time dateTime={post.revision.createdAt}>{new Date(post.revision.createdAt).toLocaleString()}</time>
                </p>
                <p className="mt-1 break-words whitespace-pre-wrap">{post.revision.content}</p>
                {post.revision.tags.length > 0 && (
                  <p className="mt-1 text-sm text-brand-700 dark:text-amber-accent">{post.revision.tags.map((t) => `#${t}`).join(' ')}</p>
                )}
                {post.revision.mediaUrl !== post.mediaUrl && (
                  <p className="mt-1 truncate text-sm text-slate-600 dark:text-slate-400">Media: {post.revision.mediaUrl ?? 'none'}</p>
                )}
              </div>
            )}
            {post.revision && <p className="mt-3 text-sm font-semibold text-slate-600 dark:text-slate-400">Now in the feed:</p>}
            <p className="mt-2 break-words whitespace-pre-wrap">{post.content}</p>
            <MediaPreview
              upload={post.media}
              mediaType={post.mediaType}
              mediaUrl={post.mediaUrl}
              mediaTitle={post.mediaTitle}
              of={`the post by ${post.author.name}`}
            />
            {post.tags.length > 0 && (
              <p className="mt-1 text-sm text-brand-700 dark:text-amber-accent">{post.tags.map((t) => `#${t}`).join(' ')}</p>
            )}
            <div className="mt-3 flex gap-2">
              <Button
                onPress={() =>
                  act.mutate({ action: { do: 'approve', postId: post.id }, done: post.revision ? 'Edit approved' : 'Post approved' })
                }
              >
                Approve
              </Button>
              {/* On a held edit, Reject turns down the edit: the post stays in the feed as it is. */}
              <ReasonDialog
                label="Reject"
                triggerName={`Reject the ${post.revision ? 'edit of the ' : ''}post by ${post.author.name}`}
                triggerVariant="destructive"
                title={post.revision ? 'Reject this edit?' : 'Reject this post?'}
                description={`${post.revision ? 'The post stays in the feed as it is now.' : 'It will not appear in the feed.'} ${post.author.name} sees the reason you give.`}
                fieldLabel="Reason for the author"
                confirmLabel={post.revision ? 'Reject edit' : 'Reject post'}
                destructive
                onConfirm={(reason) =>
                  act.mutateAsync({
                    action: { do: 'reject', postId: post.id, reason },
                    done: post.revision ? 'Edit rejected' : 'Post rejected',
                  })
                }
              />
            </div>
          </li>
        ))}
      </ul>
      <LoadMore list={pending} label="Load more posts" />
    </>
  );
}

/** What staff call each kind of reported content. */
const REPORTED_KIND = { post: 'Post', comment: 'Comment', topic: 'Topic', reply: 'Reply' } as const;

/** Where the reported content is read: its own link (discussions), a post on the feed, a comment in its thread. */
function contentLink(report: ReportGroup): string {
  if (report.link) return report.link;
  const place = report.thread ?? { targetType: 'post', targetId: report.targetId };
  return place.targetType === 'blog' ? `/blog/${place.targetId}` : `/posts/${place.targetId}`;
}

function ReportedContent() {
  const { list, items: reports } = useReports();
  const act = useAdminAction();
  if (list.isPending) return <p role="status">Loading reported content...</p>;
  if (list.isError) return <p role="alert">The reports could not be loaded.</p>;
  if (reports.length === 0)
    return <p className="py-8 text-center text-slate-600 dark:text-slate-400">No open reports. Nothing needs a look.</p>;
  return (
    <>
      <ul className="space-y-3">
        {reports.map((report) => {
          const what = REPORTED_KIND[report.targetType];
          return (
            <li
              key={`${report.targetType}:${report.targetId}`}
              aria-label={`${what} by ${report.author.name}`}
              className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
            >
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {what} by{' '}
                <MemberLink id={report.author.id} name={report.author.name} className="font-semibold text-slate-900 dark:text-slate-100" />{' '}
                · reported by {report.reporters === 1 ? '1 member' : `${report.reporters} members`} · first{' '}
                <time dateTime={report.firstReportedAt}>{new Date(report.firstReportedAt).toLocaleString()}</time>
              </p>
              <blockquote className="mt-2 border-l-4 border-slate-200 pl-3 break-words whitespace-pre-wrap dark:border-slate-700">
                {report.excerpt}
              </blockquote>
              {report.media && (
                <MediaPreview
                  upload={report.media.upload}
                  mediaType={report.media.mediaType}
                  mediaUrl={report.media.mediaUrl}
                  mediaTitle={report.media.mediaTitle}
                  of={`the ${what.toLowerCase()} by ${report.author.name}`}
                />
              )}
              {report.reasons.length > 0 && (
                <div className="mt-2">
                  <p className="text-xs font-semibold text-slate-600 uppercase dark:text-slate-400">Reasons given</p>
                  <ul aria-label="Reasons given" className="mt-1 space-y-1">
                    {report.reasons.map((reason, index) => (
                      <li
                        key={index}
                        className="rounded-md bg-red-50 px-2 py-1 text-sm break-words whitespace-pre-wrap text-red-900 dark:bg-red-950 dark:text-red-100"
                      >
                        {reason}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <div className="mt-3 flex flex-wrap items-center gap-2">
                <Button
                  variant="secondary"
                  onPress={() =>
                    act.mutate({
                      action: { do: 'dismiss', targetType: report.targetType, targetId: report.targetId },
                      done: 'Reports dismissed',
                    })
                  }
                >
                  Dismiss
                </Button>
                <Button
                  variant="destructive"
                  onPress={() =>
                    act.mutate({
                      action: { do: 'remove', targetType: report.targetType, targetId: report.targetId },
                      done: `${what} removed`,
                    })
                  }
                >
                  Remove
                </Button>
                <Button
                  variant="ghost"
                  onPress={() => {
                    if (window.confirm(`Suspend ${report.author.name}? They are signed out at once.`))
                      act.mutate({ action: { do: 'suspend', memberId: report.author.id }, done: `${report.author.name} is suspended` });
                  }}
                >
                  Suspend author
                </Button>
                <a
                  href={contentLink(report)}
                  className="ml-auto inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline dark:text-amber-accent"
                >
                  See it in place
                  <span className="sr-only">
                    : {what.toLowerCase()} by {report.author.name}
                  </span>
                </a>
              </div>
            </li>
          );
        })}
      </ul>
      <LoadMore list={list} label="Load more reports" />
    </>
  );
}

const STATUS_DOT = { online: 'bg-green-500', away: 'bg-amber-400', offline: 'bg-slate-400' } as const;

function MemberStatus({ row }: { row: MemberRow }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span aria-hidden="true" className={`size-2 rounded-full ${STATUS_DOT[row.status]}`} />
      {row.status}
    </span>
  );
}

/** What the viewer may do to a member: promote (admins), suspend or unsuspend; nothing to admins or to oneself. */
function MemberActions({ row, viewer, act }: { row: MemberRow; viewer: CurrentUser; act: ReturnType<typeof useAdminAction> }) {
  if (row.role === 'admin' || row.id === viewer.id) return null;
  return (
    <div className="flex flex-wrap gap-2 md:justify-end">
      {viewer.role === 'admin' && (
        <select
          aria-label={`Promote ${row.name}`}
          value=""
          onChange={(event) => {
            const role = ROLES.find((known) => known === event.target.value);
            if (role) act.mutate({ action: { do: 'role', memberId: row.id, role }, done: `${row.name} is now ${role}` });
          }}
          className="min-h-11 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900"
        >
          <option value="">Promote…</option>
          {ROLES.filter((role) => role !== row.role).map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      )}
      {row.suspended ? (
        <Button
          variant="secondary"
          onPress={() => act.mutate({ action: { do: 'unsuspend', memberId: row.id }, done: `${row.name} can sign in again` })}
        >
          Unsuspend
        </Button>
      ) : (
        <Button
          variant="destructive"
          onPress={() => act.mutate({ action: { do: 'suspend', memberId: row.id }, done: `${row.name} is suspended` })}
        >
          Suspend
        </Button>
      )}
    </div>
  );
}

function MemberName({ row }: { row: MemberRow }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <MemberLink id={row.id} name={row.name} decorative>
        <Avatar name={row.name} size="sm" />
      </MemberLink>
      <div className="min-w-0">
        <p className="font-medium break-words">
          <MemberLink id={row.id} name={row.name} />
        </p>
        <p className="text-xs break-all text-slate-600 dark:text-slate-400">{row.email}</p>
      </div>
    </div>
  );
}

const suspendedMark = <span className="ml-1 text-xs font-semibold text-red-700 dark:text-red-400">Suspended</span>;

const NO_FILTERS: MemberFilters = { q: '', role: '', status: '', suspended: '' };
const selectClass = 'min-h-11 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900';

/** One of the member filters: its name above, "any" first, then its values; a value it does not offer counts as any. */
function FilterSelect<V extends string>({
  label,
  any,
  options,
  value,
  onChange,
}: {
  label: string;
  any: string;
  options: readonly (readonly [value: V, text: string])[];
  value: V | '';
  onChange: (value: V | '') => void;
}) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-sm font-medium">
      {label}
      <select
        value={value}
        onChange={(event) => onChange(options.find(([known]) => known === event.target.value)?.[0] ?? '')}
        className={selectClass}
      >
        <option value="">{any}</option>
        {options.map(([known, text]) => (
          <option key={known} value={known}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Search by name or e-mail (sent once typing pauses), and the role, presence and suspension filters. */
function MemberSearch({
  search,
  setSearch,
  filters,
  setFilters,
}: {
  search: string;
  setSearch: (q: string) => void;
  filters: MemberFilters;
  setFilters: (filters: MemberFilters) => void;
}) {
  const choose = <K extends keyof MemberFilters>(key: K, value: MemberFilters[K]) => setFilters({ ...filters, [key]: value });
  return (
    <div role="search" aria-label="Find members" className="flex flex-col gap-2 md:flex-row md:flex-wrap md:items-end">
      <label className="flex flex-1 flex-col gap-1 text-sm font-medium md:min-w-64">
        Search members
        <input
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Name or e-mail"
          maxLength={100}
          className="min-h-11 rounded-md border border-slate-300 bg-white px-3 text-base font-normal dark:border-slate-600 dark:bg-slate-900"
        />
      </label>
      <div className="grid grid-cols-3 gap-2 md:flex">
        <FilterSelect
          label="Role"
          any="Any role"
          options={ROLES.map((role) => [role, role] as const)}
          value={filters.role}
          onChange={(value) => choose('role', value)}
        />
        <FilterSelect
          label="Status"
          any="Any status"
          options={PRESENCE_STATUSES.map((status) => [status, status] as const)}
          value={filters.status}
          onChange={(value) => choose('status', value)}
        />
        <FilterSelect
          label="Account"
          any="Any"
          options={[
            ['false', 'Active'],
            ['true', 'Suspended'],
          ]}
          value={filters.suspended}
          onChange={(value) => choose('suspended', value)}
        />
      </div>
    </div>
  );
}

/** Members as a table on wide screens and as cards on a phone, where a table's actions would sit off-screen. */
function Users({ viewer }: { viewer: CurrentUser }) {
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<MemberFilters>(NO_FILTERS);
  const q = useDebounced(search.trim(), 300);
  const { list: users, items: rows } = useMembers({ ...filters, q });
  const act = useAdminAction();
  const narrow = useNarrowScreen();
  const searchBox = <MemberSearch search={search} setSearch={setSearch} filters={filters} setFilters={setFilters} />;
  if (users.isPending)
    return (
      <div className="space-y-4">
        {searchBox}
        <p role="status">Loading members...</p>
      </div>
    );
  if (users.isError)
    return (
      <div className="space-y-4">
        {searchBox}
        <p role="alert">The member list could not be loaded.</p>
      </div>
    );
  return (
    <div className="space-y-4">
      {searchBox}
      <p role="status" aria-live="polite" className="sr-only">
        {users.isFetching ? 'Searching members' : `${rows.length}${users.hasNextPage ? '+' : ''} members shown`}
      </p>
      {rows.length === 0 ? (
        <div className="space-y-3 text-center">
          <EmptyState title="No members match">Try another name or e-mail address, or clear the filters.</EmptyState>
          <Button
            variant="secondary"
            onPress={() => {
              setSearch('');
              setFilters(NO_FILTERS);
            }}
          >
            Clear search and filters
          </Button>
        </div>
      ) : narrow ? (
        <ul aria-label="Members" className="space-y-3">
          {rows.map((row) => (
            <li key={row.id} className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
              <MemberName row={row} />
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <span>
                  <RoleBadge role={row.role} />
                  {row.suspended && suspendedMark}
                </span>
                <MemberStatus row={row} />
                <span>{row.posts} posts</span>
                <span>Joined {new Date(row.joinedAt).toLocaleDateString()}</span>
              </p>
              <MemberActions row={row} viewer={viewer} act={act} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 dark:border-slate-800">
              <tr>
                <th className="p-3">Member</th>
                <th className="p-3">Role</th>
                <th className="p-3">Status</th>
                <th className="p-3">Posts</th>
                <th className="p-3">Joined</th>
                <th className="p-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                  <td className="p-3">
                    <MemberName row={row} />
                  </td>
                  <td className="p-3">
                    <RoleBadge role={row.role} /> {row.suspended && suspendedMark}
                  </td>
                  <td className="p-3">
                    <MemberStatus row={row} />
                  </td>
                  <td className="p-3">{row.posts}</td>
                  <td className="p-3">{new Date(row.joinedAt).toLocaleDateString()}</td>
                  <td className="p-3">
                    <MemberActions row={row} viewer={viewer} act={act} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore list={users} label="Load more members" />
    </div>
  );
}

/** The blog, discussions and settings tabs belong to the blog, discussions and site-pages features; the route composes them in. */
export function AdminDashboard(routeParts: Omit<TabParts, 'viewer'>) {
  const { data: user } = useCurrentUser();
  const params = useParams({ strict: false }) as { tab?: string };
  const inPublicLayout = window.location.pathname.startsWith('/admin-webflow');
  const [localTab, setLocalTab] = useState<Tab>('moderation');
  const routeTab: Tab = TABS.some((t) => t.id === params.tab) ? (params.tab as Tab) : 'moderation';
  const tab = inPublicLayout ? localTab : routeTab;
  const tabClass = (active: boolean) =>
    `min-h-11 px-4 py-2 text-sm font-medium ${active ? 'border-b-2 border-brand-600 text-brand-700 dark:border-amber-accent dark:text-amber-accent' : 'text-slate-600 dark:text-slate-400'}`;
  if (!user || !isStaff(user.role))
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Access Denied</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">You don't have permission to view the admin dashboard.</p>
      </div>
    );
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold md:text-3xl">Admin Dashboard</h1>
        <Link to="/admin/widgets" className="text-sm font-medium text-brand-700 underline dark:text-amber-accent">
          Widgets for other sites
        </Link>
      </div>
      <StatCards />
      <nav aria-label="Dashboard sections" className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((t) =>
          inPublicLayout ? (
            <button
              key={t.id}
              type="button"
              aria-current={tab === t.id ? 'page' : undefined}
              onClick={() => setLocalTab(t.id)}
              className={tabClass(tab === t.id)}
            >
              {t.label}
            </button>
          ) : (
            <Link
              key={t.id}
              to="/admin/$tab"
              params={{ tab: t.id }}
              aria-current={tab === t.id ? 'page' : undefined}
              className={tabClass(tab === t.id)}
            >
              {t.label}
            </Link>
          ),
        )}
      </nav>
      {TABS.find((t) => t.id === tab)?.show({ ...routeParts, viewer: user })}
    </div>
  );
}
