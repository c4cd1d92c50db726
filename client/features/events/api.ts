/** The calendar's calls (docs/domain/events.md), with the hooks its pages use. */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type * as v from 'valibot';
import type { RsvpStatus } from '../../../shared/events/constants';
import { DEFAULT_TIME_ZONE } from '../../../shared/events/event-times';
import type { AttendeeMessage, CalendarEvent, EventSchema } from '../../../shared/events/schemas';
import { answer, api, operationAddress, uploadMedia as upload } from '../../lib/api';
import { fetchEveryPage, usePages } from '../../lib/paged-list';
import { apiQuery, operationKey, type GetQuery } from '../../lib/query-keys';

export type { CalendarEvent };

/** The lists of events a reader or staff reads: the calendar, and moderation's queues. */
export type EventListPath = '/api/events' | '/api/admin/events/pending' | '/api/admin/events/featured';
/** A list's query, as the document has it. */
export type EventQuery = GetQuery<'/api/events'>;

/** A list's query: the parameters that are set (an empty one is left out, as the list's address left it out). */
export function eventQuery(params: { [K in keyof EventQuery]?: EventQuery[K] | '' }): EventQuery {
  return Object.fromEntries(Object.entries(params).filter((entry) => Boolean(entry[1])));
}

/** One page of a list (the side panels: upcoming, featured). */
export const useEventPage = (query: EventQuery) => useQuery(apiQuery('/api/events', { params: { query } }));
/** A list read page by page ("Load more"). */
export const useEventList = (query: EventQuery, options: { enabled: boolean }, path: EventListPath = '/api/events') =>
  usePages(path, { params: { query } }, { ...options, keepPrevious: true });
/** Every event of a bounded list at once (a calendar month). */
export const useAllEvents = (query: EventQuery, enabled: boolean) =>
  useQuery({
    queryKey: [...operationKey('/api/events', { query }), 'all'],
    queryFn: () => fetchEveryPage('/api/events', { params: { query } }),
    enabled,
    placeholderData: keepPreviousData,
  });
const byId = (id: string) => ({ params: { path: { id } } });
/** One event; with `occurrence` (its start), that occurrence of a recurring event, with its own counts and the reader's RSVP. */
const atOccurrence = (id: string, occurrence?: string) => ({ params: { path: { id }, query: occurrence ? { occurrence } : {} } });
export const useEvent = (id: string, occurrence?: string) => useQuery(apiQuery('/api/events/{id}', atOccurrence(id, occurrence)));
export const useAttendeeCounts = (id: string, occurrence?: string) =>
  useQuery(apiQuery('/api/events/{id}/attendees-count', atOccurrence(id, occurrence)));
/** Who waits for a place (the organizer and staff only). */
export const useWaitlist = (id: string, enabled: boolean) => useQuery({ ...apiQuery('/api/events/{id}/waitlist', byId(id)), enabled });
export const useEventStats = (enabled = true) => useQuery({ ...apiQuery('/api/admin/events/stats'), enabled });
/** Admins set the site's zone (an IANA name such as America/Chicago); every open page reads it again. */
export function useSetSiteTimeZone() {
  const queryClient = useQueryClient();
  return async (timeZone: string) => {
    const site = await answer(api.PATCH('/api/admin/site', { body: { timeZone } }));
    await queryClient.invalidateQueries({ queryKey: operationKey('/api/site') });
    return site;
  };
}
/** The zone event times are shown and named in: the site's (GET /api/site), the default until it is read. */
export const useSiteTimeZone = () => useQuery({ ...apiQuery('/api/site'), staleTime: Infinity }).data?.timeZone ?? DEFAULT_TIME_ZONE;

/** Every read of events (the calendar, the reader's own, staff lists), refetched after the reader's own change. */
export function useRefreshEvents() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      // '/api/admin/events' is no operation of its own: its key is the prefix of every staff list below it.
      [operationKey('/api/events'), operationKey('/api/user/events'), operationKey('/api/admin/events')].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

/** An event as its form sends it (shared/events/schemas.ts, EventSchema). */
export type EventBody = v.InferOutput<typeof EventSchema>;
export const saveEvent = (body: EventBody, id?: string) =>
  id ? answer(api.PUT('/api/events/{id}', { ...byId(id), body })) : answer(api.POST('/api/events', { body }));
export const deleteEvent = (id: string) => answer(api.DELETE('/api/events/{id}', byId(id)));
export const cancelEvent = (id: string) => answer(api.POST('/api/events/{id}/cancel', byId(id)));
/** One date of a recurring event (its `occurrenceStart`, kept as its key when it moves) cancelled or moved alone; the answer is that date as the calendar shows it. */
export const cancelOccurrence = (id: string, occurrence: string, reason?: string) =>
  answer(api.POST('/api/events/{id}/occurrences/cancel', { ...byId(id), body: reason ? { occurrence, reason } : { occurrence } }));
export const moveOccurrence = (id: string, occurrence: string, startDate: string, endDate: string) =>
  answer(api.POST('/api/events/{id}/occurrences/move', { ...byId(id), body: { occurrence, startDate, endDate } }));
/** The reader's answer to an event, or to one occurrence (its start) of a recurring one. */
export const setRsvp = (id: string, status: RsvpStatus | null, occurrence?: string) =>
  status
    ? answer(api.PUT('/api/events/{id}/rsvp/me', { ...byId(id), body: occurrence ? { status, occurrence } : { status } }))
    : answer(api.DELETE('/api/events/{id}/rsvp/me', atOccurrence(id, occurrence)));
/** A rejection may say why (`reason`, shown to the organizer and staff). */
export function moderateEvent(id: string, action: 'approve' | 'reject' | 'feature', reason?: string) {
  switch (action) {
    case 'approve':
      return answer(api.PUT('/api/admin/events/{id}/approve', byId(id)));
    case 'reject':
      return answer(api.PUT('/api/admin/events/{id}/reject', { ...byId(id), body: reason ? { reason } : null }));
    case 'feature':
      return answer(api.PUT('/api/admin/events/{id}/feature', { ...byId(id), body: null }));
  }
}
export const setFeatured = (id: string, featured: boolean) =>
  answer(api.PUT('/api/admin/events/{id}/feature', { ...byId(id), body: { featured } }));
/** The event as an iCalendar file. */
export const eventIcsUrl = (id: string) => operationAddress('/api/events/{id}/ics', { id });

/** Uploads a picture for the event's cover (docs/domain/media.md#uploading); the answer names the 800-wide file events show. */
export function uploadMedia(file: File) {
  const form = new FormData();
  form.append('file', file);
  return upload(form);
}

/** Who answered the event (its organizer and staff only), and the same as a CSV file. */
export const useAttendees = (id: string, enabled: boolean) => useQuery({ ...apiQuery('/api/events/{id}/attendees', byId(id)), enabled });
export const attendeesCsvUrl = (id: string) => operationAddress('/api/events/{id}/attendees.csv', { id });
/** A message mailed to each attendee (at most 3 per event a day: a 429 says when the next may go). */
export const messageAttendees = (id: string, message: AttendeeMessage) =>
  answer(api.POST('/api/events/{id}/message', { ...byId(id), body: message }));
/** A private event's invite link (its organizer and staff), and what the page does with one opened (`?invite=`). */
export const inviteLink = (id: string) => answer(api.GET('/api/events/{id}/invite-link', byId(id)));
export const acceptInvitation = (id: string, token: string) =>
  answer(api.POST('/api/events/{id}/invitation', { ...byId(id), body: { token } }));
