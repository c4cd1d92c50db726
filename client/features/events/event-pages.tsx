/** The calendar page (/calendar) and event management (/events/manage). */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { useCurrentUser } from '../../lib/current-user';
import { DAY_CELL_LIMIT, EVENT_TYPE_LABELS, FEATURED_SIDE_LIMIT, UPCOMING_LIMIT } from '../../../shared/events/constants';
import { EventDetails, dateLine } from './event-details';
import { EventForm } from './event-form';
import type { CalendarEvent } from './types';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The weeks of a month, Sunday to Saturday, including the days of neighbouring months that fill them. */
export function monthGrid(year: number, month: number): Date[][] {
  const first = new Date(year, month, 1);
  const start = new Date(year, month, 1 - first.getDay());
  const weeks: Date[][] = [];
  for (let w = 0; w < 6; w++) {
    const week = Array.from({ length: 7 }, (_, d) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + w * 7 + d));
    if (w > 3 && week[0]!.getMonth() !== month) break;
    weeks.push(week);
  }
  return weeks;
}

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

export function CalendarPage() {
  const { data: user } = useCurrentUser();
  const [cursor, setCursor] = useState(() => new Date(new Date().getFullYear(), new Date().getMonth(), 1));
  const [view, setView] = useState<'calendar' | 'list'>('calendar');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const events = useQuery<CalendarEvent[]>({ queryKey: ['/api/events'] });

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (events.data ?? []).filter((e) => !q || [e.title, e.description, e.location].some((text) => text.toLowerCase().includes(q)));
  }, [events.data, search]);
  const now = Date.now();
  const upcoming = shown.filter((e) => new Date(e.startDate).getTime() >= now).slice(0, UPCOMING_LIMIT);
  const featured = shown.filter((e) => e.isFeatured).slice(0, FEATURED_SIDE_LIMIT);
  const weeks = monthGrid(cursor.getFullYear(), cursor.getMonth());
  const monthLabel = cursor.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  const eventButton = (e: CalendarEvent, compact = false) => (
    <button key={e.id} type="button" onClick={() => setOpen(e.id)} className={`block w-full truncate rounded text-left ${compact ? 'bg-brand-100 px-1 text-xs text-brand-800 dark:bg-brand-800 dark:text-brand-100' : ''}`}>
      {e.title}
    </button>
  );

  return (
    <div>
      <PageHeader
        title="Events & Calendar"
        actions={user && user.role !== 'subscriber' ? <Button onPress={() => setCreating(true)}>New Event</Button> : undefined}
      />
      <div className="mb-4 flex flex-wrap gap-2">
        <label htmlFor="event-search" className="sr-only">
          Search events
        </label>
        <input id="event-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search events..." className="min-h-11 flex-1 rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900" />
        <div role="group" aria-label="View" className="flex gap-1">
          {(['calendar', 'list'] as const).map((v) => (
            <Button key={v} variant={view === v ? 'primary' : 'secondary'} aria-pressed={view === v} onPress={() => setView(v)}>
              {v === 'calendar' ? 'Calendar' : 'List'}
            </Button>
          ))}
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0">
          {events.isPending ? (
            <p role="status">Loading events...</p>
          ) : view === 'calendar' ? (
            <section aria-label={monthLabel} className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
              <div className="mb-3 flex items-center justify-between gap-2">
                <h2 className="text-lg font-semibold">{monthLabel}</h2>
                <div className="flex gap-1">
                  <Button variant="secondary" aria-label="Previous month" onPress={() => setCursor(new Date(cursor.getFullYear(), cursor.getMonth() - 1, 1))}>
                    ‹
                  </Button>
                  <Button variant="secondary" onPress={() => setCursor(new Date(new Date().getFullYear(), new Date().getMonth(), 1))}>
                    Today
                  </Button>
                  <Button variant="secondary" aria-label="Next month" onPress={() => setCursor(new Date(cursor.getFullYear(), cursor.getMonth() + 1, 1))}>
                    ›
                  </Button>
                </div>
              </div>
              <div role="grid" className="grid grid-cols-7 gap-px overflow-hidden rounded bg-slate-200 text-sm dark:bg-slate-700">
                {WEEKDAYS.map((d) => (
                  <div key={d} role="columnheader" className="bg-slate-50 p-1 text-center font-medium dark:bg-slate-800">
                    {d}
                  </div>
                ))}
                {weeks.flat().map((day) => {
                  const dayEvents = shown.filter((e) => sameDay(new Date(e.startDate), day));
                  return (
                    <div key={day.toISOString()} role="gridcell" aria-label={day.toDateString()} className={`min-h-20 bg-white p-1 dark:bg-slate-900 ${day.getMonth() !== cursor.getMonth() ? 'opacity-50' : ''}`}>
                      <p className={`text-xs ${sameDay(day, new Date()) ? 'font-bold text-amber-700 dark:text-amber-accent' : ''}`}>{day.getDate()}</p>
                      <div className="space-y-0.5">{dayEvents.slice(0, DAY_CELL_LIMIT).map((e) => eventButton(e, true))}</div>
                      {dayEvents.length > DAY_CELL_LIMIT && <p className="text-xs text-slate-600 dark:text-slate-400">+{dayEvents.length - DAY_CELL_LIMIT} more</p>}
                    </div>
                  );
                })}
              </div>
            </section>
          ) : shown.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">No events found</p>
          ) : (
            <ul className="space-y-3">
              {shown.map((e) => (
                <li key={e.id}>
                  <article aria-label={e.title} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant="secondary">{EVENT_TYPE_LABELS[e.eventType]}</Badge>
                      {e.isFeatured && <Badge>Featured</Badge>}
                      {!e.isApproved && <Badge variant="outline">Pending Approval</Badge>}
                    </div>
                    <h3 className="mt-2 text-lg font-semibold">{eventButton(e)}</h3>
                    {e.description && <p className="mt-1 text-sm">{e.description}</p>}
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                      {dateLine(e)} · {e.isVirtual ? 'Virtual Event' : e.location || 'Location not specified'} · {e.organizer.firstName} {e.organizer.lastName}
                    </p>
                  </article>
                </li>
              ))}
            </ul>
          )}
        </div>
        <aside className="space-y-4">
          <section aria-labelledby="upcoming" className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <h2 id="upcoming" className="font-semibold">
              Upcoming Events
            </h2>
            {upcoming.length === 0 ? <p className="mt-2 text-sm">No events found</p> : <ul className="mt-2 space-y-2 text-sm">{upcoming.map((e) => <li key={e.id}>{eventButton(e)}</li>)}</ul>}
          </section>
          <section aria-labelledby="featured" className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <h2 id="featured" className="font-semibold">
              Featured Events
            </h2>
            {featured.length === 0 ? <p className="mt-2 text-sm">No events found</p> : <ul className="mt-2 space-y-2 text-sm">{featured.map((e) => <li key={e.id}>{eventButton(e)}</li>)}</ul>}
          </section>
        </aside>
      </div>
      {open && <EventDetails eventId={open} onClose={() => setOpen(null)} />}
      {creating && (
        <ModalOverlay isOpen isDismissable onOpenChange={(o) => !o && setCreating(false)} className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/40 p-4">
          <Modal className="w-full max-w-2xl rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
            <Dialog className="outline-none">
              <Heading slot="title" className="mb-4 text-xl font-bold">
                Create New Event
              </Heading>
              <EventForm onDone={() => setCreating(false)} />
            </Dialog>
          </Modal>
        </ModalOverlay>
      )}
    </div>
  );
}
