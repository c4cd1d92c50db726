/** The calendar's calls (docs/domain/events.md), with the hooks its pages use. */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RsvpStatus } from '../../../shared/events/constants';
import type {
  AttendeeCounts,
  AttendeeMessage,
  Attendees,
  CalendarEvent,
  EventStats,
  MessageAccepted,
  RsvpChange,
  Waitlist,
} from '../../../shared/events/schemas';
import type { Media } from '../../../shared/media/schemas';
import { apiRequest, apiUpload } from '../../lib/api';
import { fetchAllPages, usePagedList, type Page } from '../../lib/paged-list';
import { apiKey, getQuery } from '../../lib/query-keys';

export type { CalendarEvent };

const EVENTS = '/api/events';
const eventUrl = (id: string) => `${EVENTS}/${encodeURIComponent(id)}`;

/** A list's address: its path and the parameters that are set. */
export function eventsUrl(params: Record<string, string | undefined>, path = EVENTS): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** One page of a list (the side panels: upcoming, featured). */
export const useEventPage = (url: string) => useQuery(getQuery<Page<CalendarEvent>>(url));
/** A list read page by page ("Load more"). */
export const useEventList = (url: string, options: { enabled: boolean }) =>
  usePagedList<CalendarEvent>(url, { ...options, keepPrevious: true });
/** Every event of a bounded list at once (a calendar month). */
export const useAllEvents = (url: string, enabled: boolean) =>
  useQuery({
    queryKey: [...apiKey(url), 'all'],
    queryFn: () => fetchAllPages<CalendarEvent>(url),
    enabled,
    placeholderData: keepPreviousData,
  });
export const useEvent = (id: string) => useQuery(getQuery<CalendarEvent>(eventUrl(id)));
export const useAttendeeCounts = (id: string) => useQuery(getQuery<AttendeeCounts>(`${eventUrl(id)}/attendees-count`));
/** Who waits for a place (the organizer and staff only). */
export const useWaitlist = (id: string, enabled: boolean) => useQuery({ ...getQuery<Waitlist>(`${eventUrl(id)}/waitlist`), enabled });
export const useEventStats = (enabled = true) => useQuery({ ...getQuery<EventStats>('/api/admin/events/stats'), enabled });

/** Every read of events (the calendar, the reader's own, staff lists), refetched after the reader's own change. */
export function useRefreshEvents() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      ['/api/events', '/api/user/events', '/api/admin/events'].map((address) =>
        queryClient.invalidateQueries({ queryKey: apiKey(address) }),
      ),
    );
}

export const saveEvent = (body: unknown, id?: string) =>
  id ? apiRequest<CalendarEvent>('PUT', eventUrl(id), body) : apiRequest<CalendarEvent>('POST', EVENTS, body);
export const deleteEvent = (id: string) => apiRequest('DELETE', eventUrl(id));
export const cancelEvent = (id: string) => apiRequest<CalendarEvent>('POST', `${eventUrl(id)}/cancel`);
export const setRsvp = (id: string, status: RsvpStatus | null) =>
  status
    ? apiRequest<RsvpChange>('PUT', `${eventUrl(id)}/rsvp/me`, { status })
    : apiRequest<RsvpChange>('DELETE', `${eventUrl(id)}/rsvp/me`);
/** A rejection may say why (`reason`, shown to the organizer and staff). */
export const moderateEvent = (id: string, action: 'approve' | 'reject' | 'feature', reason?: string) =>
  apiRequest<CalendarEvent>(
    'PUT',
    `/api/admin/events/${encodeURIComponent(id)}/${action}`,
    action === 'reject' && reason ? { reason } : undefined,
  );
export const setFeatured = (id: string, featured: boolean) =>
  apiRequest<CalendarEvent>('PUT', `/api/admin/events/${encodeURIComponent(id)}/feature`, { featured });
/** The event as an iCalendar file. */
export const eventIcsUrl = (id: string) => `${eventUrl(id)}/ics`;

/** Uploads a picture for the event's cover (docs/domain/media.md#uploading); the answer names the 800-wide file events show. */
export function uploadMedia(file: File): Promise<Media> {
  const form = new FormData();
  form.append('file', file);
  return apiUpload<Media>('/api/media', form);
}

/** Who answered the event (its organizer and staff only), and the same as a CSV file. */
export const useAttendees = (id: string, enabled: boolean) => useQuery({ ...getQuery<Attendees>(`${eventUrl(id)}/attendees`), enabled });
export const attendeesCsvUrl = (id: string) => `${eventUrl(id)}/attendees.csv`;
/** A message mailed to each attendee (at most 3 per event a day: a 429 says when the next may go). */
export const messageAttendees = (id: string, message: AttendeeMessage) =>
  apiRequest<MessageAccepted>('POST', `${eventUrl(id)}/message`, message);
/** A private event's invite link (its organizer and staff), and what the page does with one opened (`?invite=`). */
export const inviteLink = (id: string) => apiRequest<{ url: string }>('GET', `${eventUrl(id)}/invite-link`);
export const acceptInvitation = (id: string, token: string) => apiRequest<CalendarEvent>('POST', `${eventUrl(id)}/invitation`, { token });
