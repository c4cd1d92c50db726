/**
 * An event's own page (/events/{id}), the address to share: for visitors a public approved event with a
 * sign-in that comes back here to RSVP; for members any event they may see, with their RSVP.
 */
import { useEffect, useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { isStaff, useCurrentUser } from '../../lib/current-user';
import { BookmarkButton } from '../../components/bookmark-button';
import { usePrerenderedHandoff } from '../../lib/prerendered';
import { EVENT_TYPE_LABELS } from '../../../shared/events/constants';
import { placeLine, placesLine } from '../../../shared/events/summary-lines';
import { SITE_NAME } from '../../../shared/landing';
import { acceptInvitation, eventIcsUrl, useEvent, useRefreshEvents } from './api';
import { OrganiserTools } from './organiser-tools';
import { JoinMeetingLink, PendingRevisionNote, PlaceOnMap, Rsvp, SignInToRsvp, useDateLine } from './event-details';
import { MemberLink } from '../../components/member-link';
import { EventCover } from './event-cover';
import { EventArticle } from '../../../shared/public-pages/event-article';

const LINK = 'inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent';

export function EventPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const dateLine = useDateLine();
  const { data: user } = useCurrentUser();
  const query = useEvent(id);
  const event = query.data;
  const invitation = useInvitation(id, Boolean(user));
  usePrerenderedHandoff(!query.isPending);
  useEffect(() => {
    if (event) document.title = `${event.title} | ${SITE_NAME}`;
    return () => {
      document.title = SITE_NAME;
    };
  }, [event]);

  if (query.isPending || (!event && invitation === 'opening')) return <Spinner label="Loading the event" />;
  if (!event) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">{missing ? 'Event not found' : 'The event could not be loaded'}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {invitation === 'refused'
            ? 'This invite link is not valid. Ask the organizer for the current one.'
            : missing
              ? user
                ? 'This event does not exist or was removed.'
                : 'This event does not exist, or only members can see it.'
              : 'Please refresh the page in a moment.'}
        </p>
        {missing && !user ? (
          <Link to="/login" search={{ redirect: `/events/${id}${window.location.search}` }} className={`${LINK} mt-6`}>
            Sign in to see it
          </Link>
        ) : (
          <Link to="/calendar" className={`${LINK} mt-6`}>
            Back to the calendar
          </Link>
        )}
      </div>
    );
  }
  return (
    <EventArticle
      cover={event.media?.kind === 'image' ? <EventCover media={event.media} size="page" /> : null}
      kind={
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-sm font-semibold text-brand-600 dark:text-amber-accent">{EVENT_TYPE_LABELS[event.eventType]}</p>
          {event.isCancelled && <Badge variant="destructive">Cancelled</Badge>}
          {event.isFeatured && <Badge>Featured</Badge>}
          {!event.isApproved && <Badge variant="outline">Pending Approval</Badge>}
          {!event.isPublic && <Badge variant="secondary">Private</Badge>}
        </div>
      }
      title={event.title}
      when={<time dateTime={event.startDate}>{dateLine(event)}</time>}
      where={
        <>
          {placeLine(event)}
          {user && event.isVirtual && event.virtualLink && (
            <>
              {' · '}
              <JoinMeetingLink href={event.virtualLink} />
            </>
          )}
          <PlaceOnMap event={event} />
        </>
      }
      organizer={
        <>
          Organized by <MemberLink id={event.organizerId} name={`${event.organizer.firstName} ${event.organizer.lastName}`} />
        </>
      }
      attending={user ? undefined : placesLine(event)}
    >
      <div className="mt-4">
        <PendingRevisionNote event={event} />
      </div>
      {event.description && <p className="mt-4 leading-relaxed whitespace-pre-line">{event.description}</p>}
      <div className="mt-8 space-y-4 border-t border-slate-200 pt-6 dark:border-slate-800">
        {user && <Rsvp event={event} />}
        <div className="flex flex-wrap gap-3">
          {!user && <SignInToRsvp eventId={event.id} />}
          <a
            href={eventIcsUrl(event.id)}
            className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-5 font-medium dark:border-slate-600"
          >
            Add to calendar
          </a>
          {user && (
            <BookmarkButton kind="event" id={event.id} label={event.title} className="border border-slate-300 px-5 dark:border-slate-600" />
          )}
          {user && (
            <Link to="/calendar" className={LINK}>
              Back to the calendar
            </Link>
          )}
        </div>
        {user && (user.id === event.organizerId || isStaff(user.role)) && <OrganiserTools event={event} />}
      </div>
    </EventArticle>
  );
}

/**
 * A private event's invite link (`?invite=`), opened by a signed-in member: the site records that they may see the
 * event (docs/domain/events.md#organisers), then the page reads it again.
 */
function useInvitation(id: string, signedIn: boolean): 'none' | 'opening' | 'opened' | 'refused' {
  const token = new URLSearchParams(window.location.search).get('invite');
  const refresh = useRefreshEvents();
  const [state, setState] = useState<'none' | 'opening' | 'opened' | 'refused'>(token ? 'opening' : 'none');
  useEffect(() => {
    if (!token || !signedIn) return;
    let current = true;
    acceptInvitation(id, token).then(
      async () => {
        await refresh();
        if (current) setState('opened');
      },
      () => current && setState('refused'),
    );
    return () => {
      current = false;
    };
    // Once per event and token (refresh is a new function each render).
  }, [id, token, signedIn]);
  return signedIn ? state : 'none';
}
