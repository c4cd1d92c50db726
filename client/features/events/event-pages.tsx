/** The calendar page (/calendar): month grid or list, search, upcoming and featured panels. */
import { useState } from 'react';
import { Heading } from 'react-aria-components';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { useCurrentUser } from '../../lib/current-user';
import { LoadMore } from '../../lib/paged-list';
import { DAY_CELL_LIMIT, EVENT_TYPE_LABELS, FEATURED_SIDE_LIMIT, UPCOMING_LIMIT } from '../../../shared/events/constants';
import { dayKey, monthGrid, occursOn } from '../../../shared/events/dates';
import { EventDetails, useDateLine } from './event-details';
import { EventForm } from './event-form';
import { PersonalCalendar } from './personal-calendar';
import { eventQuery, useAllEvents, useEventList, useEventPage, useSiteTimeZone, type CalendarEvent, type EventQuery } from './api';
import { useSearch } from '../../components/search-box';
import { MemberLink } from '../../components/member-link';
import { EventCover } from './event-cover';
import { EventWindow } from './event-window';
import { DialogClose } from '../../components/dialog-window';
import { QueryState } from '../../components/load-state';
import { Panel } from '../../components/panel';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const DAY_MS = 24 * 3600 * 1000;
/** A month rarely holds more events than this, so the grid usually needs one request. */
const MONTH_PAGE = 100;
/** A day key's date as people read it ("Sun Nov 22 2026"), for screen readers. */
const spokenDay = (key: string) => new Date(`${key}T12:00:00Z`).toDateString();

/** Opens an event's dialog; `occurrence`: the start of the occurrence of a recurring event shown. */
type OpenEvent = (id: string, occurrence?: string) => void;
/** An event's key in a list: a series shows once per occurrence. */
const listKey = (event: CalendarEvent) => `${event.id}|${event.occurrenceStart ?? ''}`;

/** `marked`: says "Cancelled" before a cancelled event's title (off where a badge beside it says so already). */
function EventLink({
  event,
  onOpen,
  compact = false,
  marked = true,
}: {
  event: CalendarEvent;
  onOpen: OpenEvent;
  compact?: boolean;
  marked?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={() => onOpen(event.id, event.occurrenceStart)}
      className={`block w-full truncate rounded text-left ${compact ? `px-1 text-xs ${event.isApproved ? 'bg-brand-100 text-brand-800 dark:bg-brand-800 dark:text-brand-100' : 'border border-dashed border-brand-600 text-brand-800 dark:text-brand-100'}` : 'underline-offset-2 hover:underline'}`}
    >
      {event.isCancelled && marked && (
        <>
          <span className={`mr-1 font-semibold text-red-700 dark:text-red-300 ${compact ? '' : 'text-xs'}`}>Cancelled</span>{' '}
        </>
      )}
      <span className={event.isCancelled ? 'line-through' : undefined}>{event.title}</span>
    </button>
  );
}

/** A day's full list, opened from its "+N more": every event shown on it, each opening its details. */
function DayList({ day, search, onOpen, onClose }: { day: string; search: string; onOpen: OpenEvent; onClose: () => void }) {
  const dateLine = useDateLine();
  // The day as the site's calendar has it: the grid places events in the site's zone.
  const events = useEventPage(eventQuery({ day, tz: useSiteTimeZone(), q: search }));
  const title = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return (
    <EventWindow onClose={onClose} width="max-w-md">
      <Heading slot="title" className="text-lg font-bold">
        {title}
      </Heading>
      <QueryState
        query={events}
        plain
        className="mt-3"
        loading="Loading events..."
        failed="The events could not be loaded. Please try again."
      >
        {({ items }) =>
          items.length === 0 ? (
            <p className="mt-3">No events found</p>
          ) : (
            <ul aria-label={`Events on ${title}`} className="mt-3 space-y-3">
              {items.map((e) => (
                <li key={listKey(e)}>
                  <EventLink event={e} onOpen={onOpen} />
                  <p className="text-sm text-slate-600 dark:text-slate-400">{dateLine(e)}</p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <DialogClose onClose={onClose} />
    </EventWindow>
  );
}

/** A short list of what comes first: one page, no more. */
function SidePanel({ id, title, query, onOpen }: { id: string; title: string; query: EventQuery; onOpen: OpenEvent }) {
  const events = useEventPage(query);
  return (
    <Panel id={id} title={title}>
      {events.isPending ? (
        <p className="mt-2 text-sm">Loading...</p>
      ) : (events.data?.items ?? []).length === 0 ? (
        <p className="mt-2 text-sm">No events found</p>
      ) : (
        <ul className="mt-2 space-y-2 text-sm">
          {events.data!.items.map((e) => (
            <li key={listKey(e)}>
              <EventLink event={e} onOpen={onOpen} />
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {new Date(e.startDate).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

export function CalendarPage() {
  const { data: user } = useCurrentUser();
  const dateLine = useDateLine();
  const [cursor, setCursor] = useState(() => new Date(new Date().getFullYear(), new Date().getMonth(), 1));
  const [view, setView] = useState<'calendar' | 'list'>('calendar');
  const search = useSearch({
    label: 'Search events',
    placeholder: 'Search events...',
    className: 'min-h-11 flex-1 rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900',
  });
  const q = search.q;
  const [open, setOpen] = useState<{ id: string; occurrence?: string | undefined } | null>(null);
  const openEvent: OpenEvent = (id, occurrence) => setOpen({ id, occurrence });
  const [openDay, setOpenDay] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  // Fixed for the page's life, so the panels' queries keep one key and refresh by push.
  const [now] = useState(() => new Date());

  // Days and times as the site keeps them (its zone), whatever the reader's clock.
  const zone = useSiteTimeZone();
  const today = dayKey(new Date(), zone);
  const weeks = monthGrid(cursor.getFullYear(), cursor.getMonth());
  // A day wider on each side than the grid: all-day events are UTC dates, which the reader's midnight may not reach.
  const gridFrom = new Date(new Date(`${weeks[0]![0]!.date}T00:00`).getTime() - DAY_MS);
  const gridTo = new Date(new Date(`${weeks.at(-1)![6]!.date}T00:00`).getTime() + 2 * DAY_MS);
  // The grid shows the whole month at once, so it reads every page of it; the list grows by "Load more".
  const monthQuery = eventQuery({ from: gridFrom.toISOString(), to: gridTo.toISOString(), q, limit: String(MONTH_PAGE) });
  const month = useAllEvents(monthQuery, view === 'calendar');
  const { list: listed, items: listedEvents } = useEventList(q ? eventQuery({ q }) : eventQuery({ from: cursor.toISOString() }), {
    enabled: view === 'list',
  });
  const events = view === 'calendar' ? month : listed;
  const shown = view === 'calendar' ? (month.data ?? []) : listedEvents;
  const monthLabel = cursor.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  // The list runs from the shown month onwards; a search looks through every event.
  const listHeading = view === 'calendar' ? monthLabel : q ? `Events matching “${q}”` : `${monthLabel} onwards`;

  return (
    <div>
      <PageHeader
        title="Events & Calendar"
        actions={user && user.role !== 'subscriber' ? <Button onPress={() => setCreating(true)}>New Event</Button> : undefined}
      />
      <div className="mb-4 flex flex-wrap gap-2">
        {search.box}
        <div role="group" aria-label="View" className="flex gap-1">
          {(['calendar', 'list'] as const).map((v) => (
            <Button key={v} variant={view === v ? 'primary' : 'secondary'} aria-pressed={view === v} onPress={() => setView(v)}>
              {v === 'calendar' ? 'Calendar' : 'List'}
            </Button>
          ))}
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section
          aria-label={listHeading}
          className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{listHeading}</h2>
            <div className="flex gap-1">
              <Button
                variant="secondary"
                aria-label="Previous month"
                onPress={() => setCursor(new Date(cursor.getFullYear(), cursor.getMonth() - 1, 1))}
              >
                ‹
              </Button>
              <Button variant="secondary" onPress={() => setCursor(new Date(new Date().getFullYear(), new Date().getMonth(), 1))}>
                Today
              </Button>
              <Button
                variant="secondary"
                aria-label="Next month"
                onPress={() => setCursor(new Date(cursor.getFullYear(), cursor.getMonth() + 1, 1))}
              >
                ›
              </Button>
            </div>
          </div>
          {events.isPending ? (
            <p role="status">Loading events...</p>
          ) : events.isError ? (
            <p role="alert">The events could not be loaded. Please refresh the page.</p>
          ) : view === 'calendar' ? (
            <>
              <div
                role="grid"
                aria-label={monthLabel}
                className="grid grid-cols-7 gap-px overflow-hidden rounded bg-slate-200 text-sm dark:bg-slate-700"
              >
                <div role="row" className="contents">
                  {WEEKDAYS.map((d) => (
                    <div key={d} role="columnheader" className="bg-slate-50 p-1 text-center font-medium dark:bg-slate-800">
                      {d}
                    </div>
                  ))}
                </div>
                {weeks.map((week) => (
                  <div key={week[0]!.date} role="row" className="contents">
                    {week.map((day) => {
                      const dayEvents = shown.filter((e) => occursOn(e, day.date, zone));
                      return (
                        // Days of the next or previous month are told apart by a muted background and number, not by
                        // dimming the whole cell: their events must stay as readable as any other (contrast).
                        <div
                          key={day.date}
                          role="gridcell"
                          className={`min-h-20 p-1 ${day.inMonth ? 'bg-white dark:bg-slate-900' : 'bg-slate-50 dark:bg-slate-950'}`}
                        >
                          <p
                            className={`text-xs ${day.date === today ? 'font-bold text-amber-700 dark:text-amber-accent' : day.inMonth ? '' : 'text-slate-600 dark:text-slate-400'}`}
                          >
                            <span aria-hidden="true">{day.day}</span>
                            <span className="sr-only">{spokenDay(day.date)}</span>
                          </p>
                          <div className="space-y-0.5">
                            {dayEvents.slice(0, DAY_CELL_LIMIT).map((e) => (
                              <EventLink key={listKey(e)} event={e} onOpen={openEvent} compact />
                            ))}
                          </div>
                          {dayEvents.length > DAY_CELL_LIMIT && (
                            <button
                              type="button"
                              onClick={() => setOpenDay(day.date)}
                              className="min-h-6 text-xs text-slate-600 underline-offset-2 hover:underline dark:text-slate-400"
                            >
                              +{dayEvents.length - DAY_CELL_LIMIT} more<span className="sr-only"> on {spokenDay(day.date)}</span>
                            </button>
                          )}
                        </div>
                      );
                    })}
                  </div>
                ))}
              </div>
              {shown.length === 0 && <p className="mt-3 text-center text-sm">{q ? `No events match “${q}”` : 'No events found'}</p>}
            </>
          ) : shown.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
              {q ? `No events match “${q}”` : 'No events found'}
            </p>
          ) : (
            <ul className="space-y-3">
              {shown.map((e) => (
                <li key={listKey(e)}>
                  <article aria-label={e.title} className="flex gap-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                    <EventCover media={e.media} size="thumbnail" />
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <Badge variant="secondary">{EVENT_TYPE_LABELS[e.eventType]}</Badge>
                        {e.isCancelled && <Badge variant="destructive">Cancelled</Badge>}
                        {e.isFeatured && <Badge>Featured</Badge>}
                        {!e.isApproved && <Badge variant="outline">Pending Approval</Badge>}
                        {!e.isPublic && <Badge variant="secondary">Private</Badge>}
                      </div>
                      <h3 className="mt-2 text-lg font-semibold">
                        <EventLink event={e} onOpen={openEvent} marked={false} />
                      </h3>
                      {e.description && <p className="mt-1 line-clamp-3 text-sm">{e.description}</p>}
                      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                        {dateLine(e)} · {e.isVirtual ? 'Virtual Event' : e.location || 'Location not specified'} ·{' '}
                        <MemberLink id={e.organizerId} name={`${e.organizer.firstName} ${e.organizer.lastName}`} />
                      </p>
                    </div>
                  </article>
                </li>
              ))}
            </ul>
          )}
          {view === 'list' && <LoadMore list={listed} label="Load more events" />}
        </section>
        <aside className="space-y-4">
          <SidePanel
            id="upcoming"
            title="Upcoming Events"
            query={eventQuery({ from: now.toISOString(), limit: String(UPCOMING_LIMIT) })}
            onOpen={openEvent}
          />
          <SidePanel
            id="featured"
            title="Featured Events"
            query={eventQuery({ featured: 'true', from: now.toISOString(), limit: String(FEATURED_SIDE_LIMIT) })}
            onOpen={openEvent}
          />
          {user && <PersonalCalendar />}
        </aside>
      </div>
      {openDay && !open && <DayList day={openDay} search={q} onOpen={openEvent} onClose={() => setOpenDay(null)} />}
      {open && <EventDetails eventId={open.id} occurrence={open.occurrence} onClose={() => setOpen(null)} />}
      {creating && (
        <EventWindow onClose={() => setCreating(false)} width="max-w-2xl">
          <Heading slot="title" className="mb-4 text-xl font-bold">
            Create New Event
          </Heading>
          <EventForm onDone={() => setCreating(false)} />
        </EventWindow>
      )}
    </div>
  );
}
