/** The event form and body, one schema for the client's form and the server (spec 2 §5 messages). */
import * as v from 'valibot';
import { EVENT_TYPES, TITLE_MAX_LENGTH } from './constants';
import { tagsSchema } from '../feed/schemas';
import { text } from '../text-schema';

const optionalText = (max: number) =>
  v.pipe(
    v.optional(v.nullable(text()), ''),
    v.transform((s) => (s ?? '').trim()),
    v.maxLength(max, `Must be at most ${max} characters`),
  );

const date = (required: string, invalid: string) =>
  v.pipe(
    v.optional(v.union([text(), v.date()], required), ''),
    v.transform((value) => (value instanceof Date ? value.toISOString() : value.trim())),
    v.minLength(1, required),
    v.check((value) => value === '' || !Number.isNaN(new Date(value).getTime()), invalid),
    v.transform((value) => (value === '' ? value : new Date(value).toISOString())),
  );

export const EventSchema = v.pipe(
  v.object({
    title: v.pipe(v.optional(text(), ''), v.trim(), v.minLength(1, 'Event title is required'), v.maxLength(TITLE_MAX_LENGTH, 'Title must be less than 255 characters')),
    description: optionalText(10_000),
    eventType: v.optional(v.picklist(EVENT_TYPES, 'Choose one of the event types'), 'other'),
    location: optionalText(500),
    isVirtual: v.optional(v.boolean(), false),
    virtualLink: v.pipe(
      optionalText(2048),
      v.check((link) => link === '' || /^https?:\/\//i.test(link), 'The meeting link must start with http:// or https://'),
    ),
    startDate: date('Start date is required', 'Invalid start date format'),
    endDate: date('End date is required', 'Invalid end date format'),
    allDay: v.optional(v.boolean(), false),
    isRecurring: v.optional(v.boolean(), false),
    recurrenceRule: optionalText(500),
    maxAttendees: v.pipe(
      v.optional(v.nullable(v.union([v.number(), text()])), null),
      v.transform((value) => (value === null || value === '' ? null : Number(value))),
      v.nullable(v.pipe(v.number('Max attendees must be a number'), v.integer('Max attendees must be a whole number'), v.minValue(1, 'Max attendees must be at least 1'))),
    ),
    isPublic: v.optional(v.boolean(), true),
    // Trimmed only, as the event form adds them (spec 2 "Event form"); the feed's lowercasing is not applied.
    tags: v.optional(tagsSchema((tag) => tag.trim()), []),
  }),
  v.forward(
    v.check((event) => new Date(event.endDate).getTime() >= new Date(event.startDate).getTime(), 'End date must be after start date'),
    ['endDate'],
  ),
);

export type EventFields = v.InferOutput<typeof EventSchema>;
export const RsvpSchema = v.object({ status: v.picklist(['attending', 'maybe', 'not_attending'], 'Status must be attending, maybe or not_attending') });
