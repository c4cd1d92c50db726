import type { EventType, RsvpStatus } from '../../../shared/events/constants';

/** An event as the API serves it (docs/domain/events.md). */
export interface CalendarEvent {
  id: string;
  title: string;
  description: string;
  eventType: EventType;
  location: string;
  isVirtual: boolean;
  virtualLink: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  isRecurring: boolean;
  recurrenceRule: string;
  maxAttendees: number | null;
  isPublic: boolean;
  isApproved: boolean;
  isFeatured: boolean;
  status: 'pending' | 'approved' | 'rejected';
  tags: string[];
  organizerId: string;
  organizer: { firstName: string; lastName: string; email?: string; role: string; profileImageUrl: string | null };
  attendees: { attending: number; maybe: number; notAttending: number };
  attendeeCount: number;
  /** Only on a single event, for a signed-in reader. */
  myRsvp?: RsvpStatus | null;
  createdAt: string;
  updatedAt: string;
}

/** A list query's address; it is also the query key, so a pushed change notice finds it by prefix. */
export function eventsUrl(params: Record<string, string | undefined>, path = '/api/events'): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
