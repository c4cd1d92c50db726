/** The event detail dialog: badges, dates, location, organizer, RSVP in every state, export, edit and delete. */
import { useLayoutEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Heading } from 'react-aria-components';
import { Link } from '@tanstack/react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { isStaff, useCurrentUser } from '../../lib/current-user';
import { EVENT_ID_SHOWN_LENGTH, EVENT_TYPE_LABELS, type RsvpStatus } from '../../../shared/events/constants';
import { formatEventTime } from '../../../shared/events/event-times';
import { addressLine, mapLink } from '../../../shared/events/summary-lines';
import { EventForm } from './event-form';
import { describeSeries } from '../../../shared/events/recurrence';
import { BookmarkButton } from '../../components/bookmark-button';
import {
  cancelEvent,
  deleteEvent,
  eventIcsUrl,
  setRsvp,
  useAttendeeCounts,
  useEvent,
  useRefreshEvents,
  useSiteTimeZone,
  useWaitlist,
  type CalendarEvent,
} from './api';
import { MemberLink } from '../../components/member-link';
import { EventCover } from './event-cover';
import { OccurrenceTools } from './occurrence-tools';
import { EventWindow } from './event-window';

/** The reader's own zone, shown beside the site's when their clock differs. */
export const readerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Event times as the site shows them everywhere: in its zone, naming it ("7:00 PM CST"), with the reader's own time
 * beside when their clock differs; all-day events are calendar dates wherever they are read.
 */
export function useDateLine() {
  const timeZone = useSiteTimeZone();
  const reader = readerTimeZone();
  return (event: Pick<CalendarEvent, 'startDate' | 'endDate' | 'allDay'>) => formatEventTime(event, { timeZone, readerTimeZone: reader });
}

/** For a visitor: the way in, back to this event after signing in. */
export function SignInToRsvp({ eventId }: { eventId: string }) {
  return (
    <Link
      to="/login"
      search={{ redirect: `/events/${eventId}` }}
      className="inline-flex min-h-11 items-center rounded-md bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
    >
      Sign in to RSVP
    </Link>
  );
}

/** A virtual event's meeting link, opened in a new tab. */
export function JoinMeetingLink({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-brand-600 underline dark:text-amber-accent">
      Join Virtual Meeting
    </a>
  );
}

/** The place's postal address and a link to it on OpenStreetMap (a plain link: no map script runs here). */
export function PlaceOnMap({ event }: { event: Pick<CalendarEvent, 'location' | 'address' | 'geo'> }) {
  const address = addressLine(event.address);
  const map = mapLink(event);
  if (!address && !event.geo) return null;
  return (
    <span className="block text-sm">
      {address && <span className="block">{address}</span>}
      {map && (
        <a
          href={map}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex min-h-11 items-center text-brand-600 underline dark:text-amber-accent"
        >
          Show on a map (OpenStreetMap)
        </a>
      )}
    </span>
  );
}

/** The event as its organiser last wrote it: a held edit's fields over the approved ones, so their next edit starts from it. */
const withHeldEdit = (event: CalendarEvent): CalendarEvent => {
  if (!event.pendingRevision || !event.revision) return event;
  const { submittedAt: _sent, ...fields } = event.revision;
  return { ...event, ...fields };
};

/** For the organiser and staff: the edit of this approved event that waits for staff, while everyone sees the approved one. */
export function PendingRevisionNote({ event }: { event: CalendarEvent }) {
  const dateLine = useDateLine();
  const revision = event.revision;
  if (!event.pendingRevision || !revision) return null;
  return (
    <div role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
      <p className="font-semibold">An edit waits for staff approval</p>
      <p>Attendees see the approved event until staff approve it; they are told of a new time or place then.</p>
      <p className="mt-1">
        Waiting: <span className="font-medium">{revision.title}</span> · {dateLine(revision)}
        {revision.location && ` · ${revision.location}`}
      </p>
    </div>
  );
}

const RSVP_LABELS: Record<RsvpStatus, string> = { attending: 'Attending', maybe: 'Maybe', not_attending: 'Not attending' };

export function Rsvp({ event }: { event: CalendarEvent }) {
  const { data: user } = useCurrentUser();
  const { toast } = useToast();
  // One occurrence of a recurring event has its own places: its counts, its answer.
  const counts = useAttendeeCounts(event.id, event.occurrenceStart);
  const refresh = useRefreshEvents();
  const choices = useRef<HTMLDivElement>(null);
  /** The element that had focus when an answer was sent: a button that then goes (Remove RSVP) must not drop it. */
  const pressed = useRef<{ element: Element | null; answer: CalendarEvent['myRsvp'] } | null>(null);
  const focusChoice = () => {
    const group = choices.current;
    (group?.querySelector<HTMLElement>('[aria-pressed="true"]') ?? group?.querySelector<HTMLElement>('button:not([disabled])'))?.focus();
  };
  /**
   * Keyboard users stay where they were: a button that vanishes would drop focus on the page's body, out of the
   * dialog, where Escape no longer closes it (or the dialog's focus scope would pick its first link). Focus goes to
   * the answer chosen, else the first one, in the same commit that removes the button, before anything else moves it.
   */
  useLayoutEffect(() => {
    const origin = pressed.current;
    // Until the answer shows, nothing has moved.
    if (!origin || origin.answer === event.myRsvp) return;
    pressed.current = null;
    if (origin.element && !origin.element.isConnected) focusChoice();
  });
  const set = useMutation({
    mutationFn: (status: RsvpStatus | null) => setRsvp(event.id, status, event.occurrenceStart),
    onMutate: () => {
      pressed.current = { element: document.activeElement, answer: event.myRsvp };
    },
    onSettled: () =>
      requestAnimationFrame(() => {
        if (!document.activeElement || document.activeElement === document.body) focusChoice();
      }),
    onSuccess: (result, status) => {
      if (result.status === 'waitlisted')
        toast({
          title: 'You are on the waiting list',
          description: `You are #${result.position} on the waiting list. If a place frees, it is yours at once and we e-mail you.`,
        });
      else toast({ title: status ? 'RSVP updated successfully' : 'RSVP removed successfully' });
      void refresh();
    },
    onError: (error, status) =>
      toast({
        title: 'Error',
        description:
          error instanceof ApiError && error.status === 409
            ? 'Event is at capacity. Unable to RSVP as attending.'
            : errorMessage(error, status ? 'Failed to update RSVP' : 'Failed to remove RSVP'),
        variant: 'destructive',
      }),
  });
  const attending = counts.data?.attending ?? event.attendees.attending;
  const waitlisted = event.myRsvp === 'waitlisted';
  const full =
    event.maxAttendees !== null &&
    (attending >= event.maxAttendees || event.waitlistCount > 0) &&
    event.myRsvp !== 'attending' &&
    !waitlisted;
  // A full event with a waiting list still takes "attending": it puts the reader in line.
  const attendingLabel = full && event.waitlist ? 'Join waiting list' : RSVP_LABELS.attending;

  let body;
  if (event.isCancelled) body = <p>This event was cancelled. It takes no more RSVPs.</p>;
  else if (user?.role === 'subscriber') body = <p>Upgrade your membership to RSVP to community events.</p>;
  else if (new Date(event.startDate).getTime() <= Date.now()) body = <p>RSVP is no longer available for this event.</p>;
  else if (event.status === 'rejected')
    body = (
      <>
        <p>This event was not approved, so it takes no RSVPs.</p>
        {/* Only its organizer and staff are sent the reason. */}
        {event.rejectionReason && <p className="mt-1 text-sm text-red-700 dark:text-red-400">Reason: {event.rejectionReason}</p>}
      </>
    );
  else if (!event.isApproved) body = <p>This event is pending approval. RSVP opens once staff approve it.</p>;
  else
    body = (
      <div className="space-y-2">
        <div ref={choices} role="group" aria-label="Your RSVP" aria-busy={set.isPending} className="flex flex-wrap gap-2">
          {(Object.keys(RSVP_LABELS) as RsvpStatus[]).map((status) => {
            const chosen = event.myRsvp === status || (status === 'attending' && waitlisted);
            return (
              <Button
                key={status}
                variant={chosen ? 'primary' : 'secondary'}
                aria-pressed={chosen}
                isDisabled={status === 'attending' && full && !event.waitlist}
                onPress={() => !set.isPending && set.mutate(status)}
              >
                {status === 'attending' ? (waitlisted ? 'On the waiting list' : attendingLabel) : RSVP_LABELS[status]}
              </Button>
            );
          })}
          {event.myRsvp && (
            <Button variant="ghost" onPress={() => !set.isPending && set.mutate(null)}>
              {waitlisted ? 'Leave waiting list' : 'Remove RSVP'}
            </Button>
          )}
        </div>
        {waitlisted && event.myWaitlistPosition ? (
          <p role="status" className="text-sm font-medium text-amber-800 dark:text-amber-300">
            You are #{event.myWaitlistPosition} on the waiting list. If a place frees, it is yours at once and we e-mail you.
          </p>
        ) : full ? (
          <p className="text-sm text-red-700 dark:text-red-400">
            {event.waitlist ? 'This event is full. Join the waiting list to get the next free place.' : 'This event is full.'}
          </p>
        ) : null}
      </div>
    );
  return (
    <section aria-label="RSVP" className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800">
      <p className="mb-2 text-sm font-medium">
        {attending} attending{event.maxAttendees ? ` of ${event.maxAttendees}` : ''} · {counts.data?.maybe ?? event.attendees.maybe} maybe ·{' '}
        {counts.data?.notAttending ?? event.attendees.notAttending} not attending
        {event.waitlistCount > 0 && ` · ${event.waitlistCount} waiting`}
      </p>
      {body}
      {(user?.id === event.organizerId || isStaff(user?.role)) && event.waitlistCount > 0 && <WaitingList eventId={event.id} />}
    </section>
  );
}

/** The line, first first, for the organizer and staff. */
function WaitingList({ eventId }: { eventId: string }) {
  const line = useWaitlist(eventId, true);
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium">Waiting list</summary>
      {line.isPending ? (
        <p role="status">Loading the waiting list...</p>
      ) : line.isError ? (
        <p role="alert">The waiting list could not be loaded.</p>
      ) : (
        <ol aria-label="Waiting list" className="mt-2 list-decimal space-y-1 pl-6">
          {line.data.items.map((entry) => (
            <li key={entry.memberId}>
              {entry.firstName} {entry.lastName}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** A recurring event's rule in words ("Weekly on Tuesday, 10 times"), read in the site's zone. */
export function RepeatsLine({ event }: { event: Pick<CalendarEvent, 'startDate' | 'endDate' | 'allDay' | 'recurrenceRule'> }) {
  const timeZone = useSiteTimeZone();
  const words = describeSeries(event, timeZone);
  return words ? <p className="text-sm">Repeats: {words.charAt(0).toLowerCase() + words.slice(1)}</p> : null;
}

/** `occurrence`: the start of the occurrence of a recurring event that was opened (its RSVP is that occurrence's). */
export function EventDetails({ eventId, occurrence, onClose }: { eventId: string; occurrence?: string | undefined; onClose: () => void }) {
  const { data: user } = useCurrentUser();
  const dateLine = useDateLine();
  const refresh = useRefreshEvents();
  const { toast } = useToast();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete' | 'confirm-cancel'>('view');
  const query = useEvent(eventId, occurrence);
  // The form edits the series as a whole, from its first start.
  const series = useEvent(eventId);
  const remove = useMutation({
    mutationFn: () => deleteEvent(eventId),
    onSuccess: () => {
      toast({ title: 'Event Deleted', description: 'The event has been deleted successfully.' });
      void refresh();
      onClose();
    },
    onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Failed to delete event'), variant: 'destructive' }),
  });
  const cancel = useMutation({
    mutationFn: () => cancelEvent(eventId),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Event cancelled', description: 'It stays on the calendar as cancelled and takes no more RSVPs.' });
      setMode('view');
    },
    onError: (error) =>
      toast({ title: 'Error', description: errorMessage(error, 'The event could not be cancelled'), variant: 'destructive' }),
  });
  const event = query.data;
  const staff = isStaff(user?.role);
  const manages = Boolean(event && (staff || (user && user.role !== 'subscriber' && user.id === event.organizerId)));
  // An event someone attends or waits for is cancelled by a delete (the server decides; the warning says so).
  const deleteCancels = Boolean(event && !event.isCancelled && (event.attendeeCount > 0 || event.waitlistCount > 0));

  const download = async () => {
    try {
      const response = await fetch(eventIcsUrl(eventId), { credentials: 'include' });
      if (!response.ok) throw new Error(String(response.status));
      const name = decodeURIComponent(response.headers.get('content-disposition')?.match(/filename\*=UTF-8''([^;]+)/)?.[1] ?? 'event.ics');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = name;
      link.click();
      URL.revokeObjectURL(link.href);
      toast({ title: 'Calendar Export', description: 'Event has been downloaded as .ics file' });
    } catch {
      toast({ title: 'Export Failed', description: 'Failed to export event to calendar', variant: 'destructive' });
    }
  };

  return (
    <EventWindow onClose={onClose} width="max-w-2xl" aria-label={event?.title ?? 'Event'}>
      {!event ? (
        <p role="status">{query.isError ? 'This event could not be loaded.' : 'Loading the event...'}</p>
      ) : mode === 'edit' ? (
        <>
          <Heading slot="title" className="text-xl font-bold">
            Edit Event
          </Heading>
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
            Make changes to your event. All changes will be saved automatically.
          </p>
          <EventForm
            event={isStaff(user?.role) ? (series.data ?? event) : withHeldEdit(series.data ?? event)}
            onDone={() => setMode('view')}
          />
        </>
      ) : (
        <div className="space-y-4">
          <EventCover media={event.media} size="dialog" />
          <div className="flex flex-wrap items-center gap-2">
            <Heading slot="title" className="text-2xl font-bold">
              {event.title}
            </Heading>
            {event.isCancelled && <Badge variant="destructive">Cancelled</Badge>}
            {event.isFeatured && <Badge>Featured</Badge>}
            {!event.isApproved && <Badge variant="outline">Pending Approval</Badge>}
            {event.pendingRevision && <Badge variant="outline">Edit awaiting approval</Badge>}
            {!event.isPublic && <Badge variant="secondary">Private</Badge>}
          </div>
          <p className={`font-medium ${event.isCancelled ? 'line-through' : ''}`}>{dateLine(event)}</p>
          <div className="flex flex-wrap gap-2">
            <Badge variant="secondary">{EVENT_TYPE_LABELS[event.eventType]}</Badge>
            {event.maxAttendees && <span className="text-sm">Up to {event.maxAttendees} attendees</span>}
          </div>
          {event.description && <p className="whitespace-pre-wrap">{event.description}</p>}
          <p>
            {event.isVirtual ? (
              <>Virtual Event {event.virtualLink && <JoinMeetingLink href={event.virtualLink} />}</>
            ) : (
              event.location || 'Location not specified'
            )}
            <PlaceOnMap event={event} />
          </p>
          <PendingRevisionNote event={event} />
          <p className="text-sm">
            Organized by <MemberLink id={event.organizerId} name={`${event.organizer.firstName} ${event.organizer.lastName}`} />
          </p>
          {event.tags.length > 0 && <p className="text-sm">{event.tags.map((t) => `#${t}`).join(' ')}</p>}
          <RepeatsLine event={event} />
          {user ? <Rsvp event={event} /> : <SignInToRsvp eventId={event.id} />}
          {staff && (
            <section aria-label="Admin information" className="rounded-lg border border-slate-200 p-3 text-xs dark:border-slate-700">
              <h3 className="mb-1 font-semibold">Admin Information</h3>
              <p>Creator: {event.organizer.email}</p>
              <p>Event id: {event.id.slice(0, EVENT_ID_SHOWN_LENGTH)}</p>
              <p>Organizer id: {event.organizerId.slice(0, EVENT_ID_SHOWN_LENGTH)}</p>
              <p>
                Created {new Date(event.createdAt).toLocaleString()} · Updated {new Date(event.updatedAt).toLocaleString()}
              </p>
            </section>
          )}
          {mode === 'confirm-cancel' ? (
            <div role="alertdialog" aria-label="Confirm cancellation" className="rounded-lg bg-red-50 p-3 dark:bg-red-950">
              <p className="text-sm">
                Cancel this event? It stays on the calendar as cancelled, takes no more RSVPs and can no longer be changed.
              </p>
              <div className="mt-2 flex gap-2">
                <Button variant="destructive" onPress={() => cancel.mutate()} isDisabled={cancel.isPending}>
                  {cancel.isPending ? 'Cancelling...' : 'Cancel event'}
                </Button>
                <Button variant="ghost" onPress={() => setMode('view')}>
                  Keep it
                </Button>
              </div>
            </div>
          ) : mode === 'confirm-delete' ? (
            <div role="alertdialog" aria-label="Confirm deletion" className="rounded-lg bg-red-50 p-3 dark:bg-red-950">
              <p className="text-sm">
                {deleteCancels
                  ? 'People attend or wait for this event, so it is cancelled instead: it stays on the calendar as cancelled. Delete it again afterwards to remove it.'
                  : 'Delete this event? Its RSVPs and related data are deleted too. This cannot be undone.'}
              </p>
              <div className="mt-2 flex gap-2">
                <Button variant="destructive" onPress={() => remove.mutate()}>
                  Delete
                </Button>
                <Button variant="ghost" onPress={() => setMode('view')}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : (
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onPress={() => void download()}>
                Download to calendar (.ics)
              </Button>
              {user && (
                <BookmarkButton kind="event" id={event.id} label={event.title} className="border border-slate-300 dark:border-slate-600" />
              )}
              {/* Its organizer and staff find the attendees, messages and a private event's invite link on its page. */}
              {((event.isApproved && event.isPublic) || manages) && (
                <Link
                  to="/events/$id"
                  params={{ id: event.id }}
                  className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-brand-600 underline dark:text-amber-accent"
                >
                  {event.isApproved && event.isPublic ? 'Event page to share' : 'Event page'}
                  {manages && <span className="sr-only"> (attendees and messages)</span>}
                </Link>
              )}
              {manages && !event.isCancelled && (
                <>
                  <Button variant="secondary" onPress={() => setMode('edit')}>
                    Edit
                  </Button>
                  <Button variant="secondary" onPress={() => setMode('confirm-cancel')}>
                    Cancel event
                  </Button>
                  <OccurrenceTools event={event} dateLine={dateLine(event)} />
                </>
              )}
              {staff && (
                <Button variant="destructive" onPress={() => setMode('confirm-delete')}>
                  Delete
                </Button>
              )}
              <Button variant="ghost" onPress={onClose}>
                Close
              </Button>
            </div>
          )}
        </div>
      )}
    </EventWindow>
  );
}
