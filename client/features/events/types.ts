import type { EventType, RsvpStatus } from '../../../shared/events/constants';

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
  myRsvp?: RsvpStatus | null;
  createdAt: string;
  updatedAt: string;
}
