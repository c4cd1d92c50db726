/** Event management for admin and staff (/events/manage): queue, bulk moderation, featuring, statistics. */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { DialogTrigger, Heading, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { CONFIRM_OVERLAY, CONFIRM_PANEL, ModalFrame } from '../../components/dialog-window';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { isStaff, useCurrentUser } from '../../lib/current-user';
import { LoadMore } from '../../lib/paged-list';
import { EVENT_TYPES, EVENT_TYPE_LABELS, type EventType } from '../../../shared/events/constants';
import { EventDetails, PendingRevisionNote, useDateLine } from './event-details';
import {
  cancelEvent,
  eventQuery,
  moderateEvent,
  useEventList,
  useEventStats,
  useRefreshEvents,
  useSetSiteTimeZone,
  useSiteTimeZone,
  type CalendarEvent,
  type EventListPath,
} from './api';
import { useDebounced } from '../../lib/use-debounced';
import { MemberLink } from '../../components/member-link';
import { MediaPreview } from '../../components/media-preview';
import { ReasonDialog } from '../../components/reason-dialog';
import { PANEL_LOOK } from '../../components/panel';

type Tab = 'pending' | 'all' | 'featured' | 'stats';
type SortKey = 'created' | 'start' | 'title';
/** Each tab's list, searched, filtered and sorted by the server. */
const TAB_LISTS: Record<Exclude<Tab, 'stats'>, { path: EventListPath; params?: { status: 'any' } }> = {
  pending: { path: '/api/admin/events/pending' },
  all: { path: '/api/events', params: { status: 'any' } },
  featured: { path: '/api/admin/events/featured' },
};

export function EventManagementPage() {
  const { data: user } = useCurrentUser();
  const dateLine = useDateLine();
  const allowed = isStaff(user?.role);
  const refresh = useRefreshEvents();
  const { toast } = useToast();
  const [tab, setTab] = useState<Tab>('pending');
  const [searchInput, setSearch] = useState('');
  const [type, setType] = useState<EventType | ''>('');
  const [sort, setSort] = useState<SortKey>('created');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<'approve' | 'reject' | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const search = useDebounced(searchInput.trim());
  const listed = TAB_LISTS[tab === 'stats' ? 'all' : tab];
  const { list: events, items: list } = useEventList(
    eventQuery({ ...listed.params, q: search, type, sort }),
    { enabled: allowed && tab !== 'stats' },
    listed.path,
  );
  const stats = useEventStats(allowed);
  const act = useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: 'approve' | 'reject' | 'feature'; reason?: string | undefined }) =>
      moderateEvent(id, action, reason),
    onSuccess: (_r, { action }) => {
      toast({
        title:
          action === 'approve'
            ? 'Event approved successfully'
            : action === 'reject'
              ? 'Event rejected successfully'
              : 'Event featured status updated',
      });
      void refresh();
    },
    onError: (error, { action }) =>
      toast({
        title:
          action === 'approve'
            ? 'Failed to approve event'
            : action === 'reject'
              ? 'Failed to reject event'
              : 'Failed to update featured status',
        description: errorMessage(error, ''),
        variant: 'destructive',
      }),
  });

  if (user === undefined) return <p role="status">Loading...</p>;
  if (!allowed)
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Access Restricted</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">Only admins and staff can manage events.</p>
      </div>
    );

  /** Bulk actions run one event at a time, then clear the selection. */
  const runBulk = async (action: 'approve' | 'reject') => {
    setConfirm(null);
    for (const id of selected) await act.mutateAsync({ id, action }).catch(() => undefined);
    setSelected(new Set());
  };
  const askBulk = (action: 'approve' | 'reject') => {
    if (selected.size === 0) toast({ title: 'No events selected', description: 'Please select events to perform bulk actions.' });
    else setConfirm(action);
  };
  const s = stats.data;
  const percent = (n: number) => (s && s.total > 0 ? Math.round((n / s.total) * 100) : 0);

  return (
    <div>
      <PageHeader
        title="Event Management"
        actions={
          <p className="flex gap-3 text-sm">
            <span>Pending {s?.pending ?? '—'}</span>
            <span>Featured {s?.featured ?? '—'}</span>
            <span>Total {s?.total ?? '—'}</span>
          </p>
        }
      />
      <div role="tablist" aria-label="Event lists" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {(
          [
            ['pending', `Pending Events`],
            ['all', 'All Events'],
            ['featured', 'Featured Events'],
            ['stats', 'Statistics'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            onClick={() => {
              setTab(id);
              setSelected(new Set());
            }}
            className={`min-h-11 px-4 text-sm font-medium ${tab === id ? 'border-b-2 border-brand-600 dark:border-amber-accent' : 'text-slate-600 dark:text-slate-400'}`}
          >
            {label}
            {id === 'pending' && Boolean(s?.pending) && (
              <span className="ml-2 rounded-full bg-red-600 px-2 text-xs text-white">{s?.pending}</span>
            )}
          </button>
        ))}
      </div>
      {tab === 'stats' ? (
        <section aria-label="Statistics" className="space-y-4">
          {user?.role === 'admin' && <SiteTimeZoneForm />}
          <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
            {(
              [
                ['Total', s?.total],
                ['Pending Approval', s?.pending],
                ['Approved', s?.approved],
                ['Featured', s?.featured],
                ['Public', s?.public],
                ['Private', s?.private],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
                <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
                <p className="text-2xl font-bold">{value ?? '—'}</p>
              </div>
            ))}
          </div>
          {(
            [
              ['Approved', percent(s?.approved ?? 0)],
              ['Public', percent(s?.public ?? 0)],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <p className="text-sm">
                {label}: {value}%
              </p>
              <div
                className="h-3 rounded bg-slate-200 dark:bg-slate-700"
                role="progressbar"
                aria-label={`${label} share`}
                aria-valuenow={value}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className="h-3 rounded bg-brand-600 dark:bg-amber-accent" style={{ width: `${value}%` }} />
              </div>
            </div>
          ))}
        </section>
      ) : (
        <>
          <div className="mb-4 flex flex-wrap gap-2">
            <input
              type="search"
              aria-label="Search events"
              placeholder="Search events..."
              value={searchInput}
              onChange={(e) => setSearch(e.target.value)}
              className="min-h-11 flex-1 rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900"
            />
            <select
              aria-label="Event type"
              value={type}
              onChange={(e) => setType(e.target.value as EventType | '')}
              className="min-h-11 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900"
            >
              <option value="">All types</option>
              {EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {EVENT_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
            <select
              aria-label="Sort by"
              value={sort}
              onChange={(e) => setSort(e.target.value as SortKey)}
              className="min-h-11 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900"
            >
              <option value="created">Created Date</option>
              <option value="start">Event Date</option>
              <option value="title">Title</option>
            </select>
          </div>
          {tab === 'pending' && (
            <div className="mb-3 flex flex-wrap items-center gap-2">
              <label className="flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={list.length > 0 && selected.size === list.length}
                  onChange={(e) => setSelected(e.target.checked ? new Set(list.map((ev) => ev.id)) : new Set())}
                />
                Select all
              </label>
              <Button onPress={() => askBulk('approve')}>Approve All</Button>
              <Button variant="destructive" onPress={() => askBulk('reject')}>
                Reject All
              </Button>
              <Button variant="ghost" onPress={() => setSelected(new Set())}>
                Clear Selection
              </Button>
            </div>
          )}
          {confirm && (
            <div role="alertdialog" aria-label="Confirm bulk action" className="mb-3 rounded-lg bg-amber-50 p-3 dark:bg-amber-950">
              <p className="text-sm">
                {confirm === 'approve'
                  ? `Approve ${selected.size} selected event(s)?`
                  : `Reject ${selected.size} selected event(s)? This cannot be undone.`}
              </p>
              <div className="mt-2 flex gap-2">
                <Button variant={confirm === 'reject' ? 'destructive' : 'primary'} onPress={() => void runBulk(confirm)}>
                  Confirm
                </Button>
                <Button variant="ghost" onPress={() => setConfirm(null)}>
                  Cancel
                </Button>
              </div>
            </div>
          )}
          {list.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
              {search ? `No events match “${search}”` : 'No events found'}
            </p>
          ) : (
            <ul className="space-y-3">
              {list.map((e) => (
                <li key={e.id} aria-label={e.title} className={`flex gap-3 ${PANEL_LOOK}`}>
                  {tab === 'pending' && (
                    <input
                      type="checkbox"
                      aria-label={`Select ${e.title}`}
                      checked={selected.has(e.id)}
                      onChange={(ev) => {
                        const next = new Set(selected);
                        if (ev.target.checked) next.add(e.id);
                        else next.delete(e.id);
                        setSelected(next);
                      }}
                    />
                  )}
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="font-semibold">{e.title}</h3>
                      <Badge variant="secondary">{EVENT_TYPE_LABELS[e.eventType]}</Badge>
                      {e.isCancelled && <Badge variant="destructive">Cancelled</Badge>}
                      {e.isFeatured && <Badge>Featured</Badge>}
                      {e.status === 'pending' && <Badge variant="outline">Pending Approval</Badge>}
                      {e.status === 'rejected' && <Badge variant="destructive">Rejected</Badge>}
                      {e.pendingRevision && <Badge variant="outline">Edit awaiting approval</Badge>}
                    </div>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      {dateLine(e)} · <MemberLink id={e.organizerId} name={`${e.organizer.firstName} ${e.organizer.lastName}`} />
                    </p>
                    {tab === 'pending' && e.description && <p className="mt-1 line-clamp-3 text-sm whitespace-pre-wrap">{e.description}</p>}
                    {tab === 'pending' && <MediaPreview upload={e.media} of={`the event ${e.title}`} />}
                    {tab === 'pending' && <PendingRevisionNote event={e} />}
                    {e.status === 'rejected' && e.rejectionReason && (
                      <p className="mt-1 text-sm text-red-700 dark:text-red-400">Reason: {e.rejectionReason}</p>
                    )}
                    <div className="mt-2 flex flex-wrap gap-2">
                      <Button variant="ghost" onPress={() => setOpen(e.id)}>
                        View
                      </Button>
                      {e.status !== 'approved' && <Button onPress={() => act.mutate({ id: e.id, action: 'approve' })}>Approve</Button>}
                      {/* An organiser's edit of an approved event: approved or rejected alone, the event stays. */}
                      {e.pendingRevision && (
                        <Button aria-label={`Approve the edit of ${e.title}`} onPress={() => act.mutate({ id: e.id, action: 'approve' })}>
                          Approve edit
                        </Button>
                      )}
                      {e.pendingRevision && (
                        <ReasonDialog
                          label="Reject edit"
                          triggerName={`Reject the edit of ${e.title}`}
                          triggerVariant="destructive"
                          title="Reject this edit?"
                          description="The approved event stays as it is. The organizer sees the reason you give."
                          fieldLabel="Reason for the organizer"
                          confirmLabel="Reject edit"
                          destructive
                          onConfirm={(reason) => act.mutateAsync({ id: e.id, action: 'reject', reason })}
                        />
                      )}
                      {/* An approved event is never rejected: it is cancelled, and those who answered it are told. */}
                      {e.status === 'approved' && !e.isCancelled && <CancelEventButton event={e} onCancelled={() => void refresh()} />}
                      {e.status === 'pending' && (
                        <ReasonDialog
                          label="Reject"
                          triggerName={`Reject ${e.title}`}
                          triggerVariant="destructive"
                          title="Reject this event?"
                          description={`It leaves the listings and takes no RSVPs. ${e.organizer.firstName || 'The organizer'} sees the reason you give.`}
                          fieldLabel="Reason for the organizer"
                          confirmLabel="Reject event"
                          destructive
                          onConfirm={(reason) => act.mutateAsync({ id: e.id, action: 'reject', reason })}
                        />
                      )}
                      <MenuTrigger>
                        <Button variant="secondary" aria-label={`More actions for ${e.title}`}>
                          ⋯
                        </Button>
                        <Popover className="min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
                          <Menu className="outline-none" onAction={() => act.mutate({ id: e.id, action: 'feature' })}>
                            <MenuItem className="flex min-h-11 cursor-pointer items-center rounded px-3 text-sm outline-none data-focused:bg-slate-100 dark:data-focused:bg-slate-800">
                              {e.isFeatured ? 'Unfeature' : 'Feature'}
                            </MenuItem>
                          </Menu>
                        </Popover>
                      </MenuTrigger>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <LoadMore list={events} label="Load more events" />
        </>
      )}
      {open && <EventDetails eventId={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** Management's Cancel for an approved event, confirmed in a dialog: it stays listed as cancelled and its attendees are mailed. */
/** Admins: the zone every event time is shown and named in. */
function SiteTimeZoneForm() {
  const current = useSiteTimeZone();
  const setZone = useSetSiteTimeZone();
  const { toast } = useToast();
  const [zone, setZoneText] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => setZone((zone ?? current).trim()),
    onSuccess: (site) => {
      setZoneText(null);
      toast({ title: 'Time zone saved', description: `Event times now show in ${site.timeZone}.` });
    },
    onError: (error) =>
      toast({ title: 'Could not save the time zone', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label className="block text-sm">
        Site time zone (IANA name, e.g. America/Chicago)
        <input
          className="mt-1 block min-h-11 w-72 max-w-full rounded-md border border-slate-300 px-3 dark:border-slate-600 dark:bg-slate-800"
          value={zone ?? current}
          onChange={(e) => setZoneText(e.target.value)}
        />
      </label>
      <Button type="submit" isDisabled={save.isPending}>
        Save time zone
      </Button>
    </form>
  );
}

function CancelEventButton({ event, onCancelled }: { event: CalendarEvent; onCancelled: () => void }) {
  const { toast } = useToast();
  const cancel = useMutation({
    mutationFn: () => cancelEvent(event.id),
    onSuccess: () => {
      toast({ title: 'Event cancelled', description: 'It stays on the calendar as cancelled; its attendees are told.' });
      onCancelled();
    },
    onError: (error) =>
      toast({ title: 'Error', description: errorMessage(error, 'The event could not be cancelled'), variant: 'destructive' }),
  });
  return (
    <DialogTrigger>
      <Button variant="destructive" aria-label={`Cancel ${event.title}`}>
        Cancel event
      </Button>
      <ModalFrame role="alertdialog" overlayClassName={CONFIRM_OVERLAY} className={CONFIRM_PANEL}>
        {(close) => (
          <>
            <Heading slot="title" className="text-lg font-bold">
              Cancel this event?
            </Heading>
            <p className="mt-2 text-sm">
              An approved event is cancelled rather than rejected: it stays on the calendar as cancelled, takes no more RSVPs, and everyone
              attending or waiting is e-mailed.
            </p>
            <div className="mt-4 flex flex-wrap gap-2">
              <Button variant="destructive" isDisabled={cancel.isPending} onPress={() => cancel.mutateAsync().then(close, () => undefined)}>
                {cancel.isPending ? 'Cancelling...' : 'Cancel event'}
              </Button>
              <Button variant="ghost" onPress={close}>
                Keep it
              </Button>
            </div>
          </>
        )}
      </ModalFrame>
    </DialogTrigger>
  );
}
