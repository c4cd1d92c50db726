/** Events, RSVP and calendar export (docs/domain/events.md). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { calendarEventDecider, isModerator, type CalendarEventCommand } from '../../shared/events/event-stream';
import { AttendeeCountsSchema, CalendarEventSchema, EventSchema, EventStatsSchema, MyRsvpSchema, RsvpChangeSchema, RsvpSchema, type CalendarEvent, type RsvpChange } from '../../shared/events/schemas';
import { pageSchema } from '../../shared/page';
import { EVENT_TYPES, type RsvpStatus } from '../../shared/events/constants';
import { calendarFile, icsFileName, type IcsEvent } from '../../shared/events/ics';
import { text } from '../../shared/text-schema';
import { calendarEvents, eventDetails, type CalendarEventDocument, type EventDetailsDocument } from '../../projections/events/events';
import { memberEvents } from '../../projections/events/member-events';
import { readEventStats } from '../../projections/events/event-stats';
import type { Filter, Sort } from '../../platform/document-store/port';
import { ErrorSchema, noContent, type ResponseSchema, type ValibotTypeProvider } from '../http/openapi';
import type { Intent } from '../../platform/command-handler';
import { findPage, mapPage, OLDEST_FIRST, pageQuery } from '../http/pagination';
import { PARTICIPANTS, STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { escapeRegex } from '../../shared/text';

/** A list's page when the caller names no limit: a month of the calendar fits. */
const LIST_PAGE = 100;
/** How far back the subscribable feed reaches, by start: calendar apps keep what they have already fetched. */
const CALENDAR_FEED_PAST_DAYS = 90;
/** The most events the feed carries; past it those that started longest ago are left out first. */
const CALENDAR_FEED_MAX_EVENTS = 500;

const IdParams = v.object({ id: text() });
const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu;
/** Every event id is a UUID, so anything else names an event that does not exist, not a malformed request. */
function eventId(id: string): string {
  if (!UUID.test(id)) throw fail.notFound('Event not found');
  return id;
}
const isoDate = (name: string) => v.optional(v.pipe(text(), v.check((s) => !Number.isNaN(Date.parse(s)), `${name} must be a date`), v.transform((s) => new Date(s).toISOString())));
const SORTS = { start: { startDate: 1, _id: 1 }, created: { createdAt: -1, _id: 1 }, title: { title: 1, _id: 1 } } satisfies Record<string, Sort>;
const ListQuery = v.object({
  from: isoDate('from'),
  to: isoDate('to'),
  q: v.optional(v.pipe(text(), v.trim(), v.maxLength(200, 'Search at most 200 characters'))),
  type: v.optional(v.picklist(EVENT_TYPES, 'Unknown event type')),
  featured: v.optional(v.picklist(['true', 'false'], 'featured must be true or false')),
  /** Rejected events leave every list unless asked for (management's All Events). */
  status: v.optional(v.picklist(['pending', 'approved', 'rejected', 'any'], 'status must be pending, approved, rejected or any')),
  sort: v.optional(v.picklist(['start', 'created', 'title'], 'sort must be start, created or title')),
  ...pageQuery(LIST_PAGE),
});
type ListQuery = v.InferOutput<typeof ListQuery>;
const MyEventsQuery = v.object(pageQuery(50));
const FeatureBody = v.nullish(v.object({ featured: v.optional(v.boolean('featured must be true or false')) }));

const isStaff = (actor: Actor | null) => Boolean(actor && isModerator(actor));

/** Who sees what: everyone public approved events; members also their own; staff everything. */
function visibility(actor: Actor | null): Filter {
  if (isStaff(actor)) return {};
  const open = { status: 'approved', isPublic: true };
  return actor ? { $or: [open, { organizerId: actor.id }] } : open;
}

function canSee(event: EventDetailsDocument, actor: Actor | null) {
  return isStaff(actor) || (event.isApproved && event.isPublic) || event.organizerId === actor?.id;
}

/** The event as the API answers it (docs/domain/events.md#event-types); organizer e-mails only for staff (the dialog's admin information). */
function eventDto(event: CalendarEventDocument | EventDetailsDocument, viewer: Actor | null, myRsvp?: RsvpStatus | null): CalendarEvent {
  const { organizer } = event;
  return {
    id: event._id,
    title: event.title,
    description: event.description,
    eventType: event.eventType,
    location: event.location,
    isVirtual: event.isVirtual,
    virtualLink: event.virtualLink,
    startDate: event.startDate,
    endDate: event.endDate,
    allDay: event.allDay,
    isRecurring: event.isRecurring,
    recurrenceRule: event.recurrenceRule,
    maxAttendees: event.maxAttendees,
    isPublic: event.isPublic,
    tags: event.tags,
    status: event.status,
    isApproved: event.isApproved,
    isFeatured: event.isFeatured,
    organizerId: event.organizerId,
    organizer: { firstName: organizer.firstName, lastName: organizer.lastName, role: organizer.role, profileImageUrl: organizer.profileImageUrl, ...(isStaff(viewer) ? { email: organizer.email } : {}) },
    attendees: event.attendees,
    attendeeCount: event.attendees.attending,
    ...(myRsvp !== undefined ? { myRsvp } : {}),
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
  };
}

const detailsDto = (event: EventDetailsDocument, viewer: Actor | null): CalendarEvent => eventDto(event, viewer, viewer ? (event.rsvps[viewer.id] ?? null) : undefined);

function icsEvent(event: EventDetailsDocument | CalendarEventDocument): IcsEvent {
  const name = `${event.organizer.firstName} ${event.organizer.lastName}`.trim();
  return { ...event, id: event._id, organizerName: name || null };
}

/** The calendar's filter for a list query, within what the caller may see. */
function listFilter(query: ListQuery, actor: Actor | null, fixed: Filter = {}): Filter {
  const conditions: Filter[] = [visibility(actor), fixed];
  const status = query.status ?? (fixed.status ? undefined : 'current');
  if (status === 'current') conditions.push({ status: { $ne: 'rejected' } });
  else if (status && status !== 'any') conditions.push({ status });
  if (query.from) conditions.push({ startDate: { $gte: query.from } });
  if (query.to) conditions.push({ startDate: { $lt: query.to } });
  if (query.type) conditions.push({ eventType: query.type });
  if (query.featured) conditions.push({ isFeatured: query.featured === 'true' });
  if (query.q) conditions.push({ search: { $regex: escapeRegex(query.q.toLowerCase()) } });
  const effective = conditions.filter((condition) => Object.keys(condition).length > 0);
  return effective.length > 0 ? { $and: effective } : {};
}

export async function eventRoutes(fastify: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> }) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const details = eventDetails(services.store);
  const calendar = calendarEvents(services.store);
  const links = memberEvents(services.store);
  const host = new URL(services.config.publicUrl).hostname;
  const tags = ['events'];
  const none = {} as Record<string, never>;
  /** One event's call: its id in the path; 404 for an event the caller may not see, as for one that does not exist. */
  const onEvent = <Answers extends Record<number, ResponseSchema>>(summary: string, response: Answers) => ({ summary, tags, params: IdParams, response: { ...response, 404: ErrorSchema } });
  /** A command on an event: refused when someone else changed it at the same moment (409). */
  const changesEvent = (summary: string) => onEvent(summary, { 200: CalendarEventSchema, 409: ErrorSchema });
  const eventList = (summary: string) => ({ summary, tags, querystring: ListQuery, response: { 200: pageSchema(CalendarEventSchema) } });

  async function visibleEvent(id: string, actor: Actor | null) {
    const event = await details.findOne({ _id: id });
    if (!event || !canSee(event, actor)) throw fail.notFound('Event not found');
    return event;
  }

  const decide = (id: string, actor: Actor | null, intent: Intent<CalendarEventCommand>) =>
    services.handle(calendarEventDecider, streamName('event', id), { ...intent, metadata: { now: services.now(), actor } }, actor ? { actorId: actor.id } : {});
  /** Runs a command on the event's stream; the answer is the event as every query now shows it. */
  async function command(id: string, actor: Actor | null, intent: Intent<CalendarEventCommand>) {
    await decide(id, actor, intent);
    const event = await details.findOne({ _id: id });
    if (!event) throw fail.notFound('Event not found');
    return event;
  }

  async function list(query: ListQuery, actor: Actor | null, fixed: Filter = {}, defaultSort: Sort = SORTS.start) {
    const page = await findPage(calendar, listFilter(query, actor, fixed), query.sort ? SORTS[query.sort] : defaultSort, query);
    return mapPage(page, (event) => eventDto(event, actor));
  }

  app.get('/api/events', { config: { access: 'public' }, schema: eventList('The calendar: events by start, filtered by dates, search, type, featured or status') }, (request) => list(request.query, request.actor));

  app.get('/api/events/:id', { config: { access: 'public' }, schema: onEvent('One event, with the reader’s RSVP when signed in', { 200: CalendarEventSchema }) }, async (request) =>
    detailsDto(await visibleEvent(eventId(request.params.id), request.actor), request.actor),
  );

  app.post(
    '/api/events',
    { config: { access: PARTICIPANTS, rateLimit: { max: services.config.rateLimits.events, timeWindow: '1 minute' } }, schema: { summary: 'Create an event; staff events are approved at once, members’ wait for approval', tags, body: EventSchema, response: { 201: CalendarEventSchema } } },
    async (request, reply) => {
      const id = randomUUID();
      return reply.status(201).send(detailsDto(await command(id, request.actor, { type: 'ScheduleEvent', data: { id, fields: request.body } }), request.actor));
    },
  );

  app.put(
    '/api/events/:id',
    { config: { access: PARTICIPANTS }, schema: { ...onEvent('Edit an event (its organizer or staff); a member’s edit of an approved event waits for approval again', { 200: CalendarEventSchema, 409: ErrorSchema, 422: ErrorSchema }), body: EventSchema } },
    async (request) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      return detailsDto(await command(id, request.actor, { type: 'EditEvent', data: { fields: request.body } }), request.actor);
    },
  );

  app.delete('/api/events/:id', { config: { access: STAFF }, schema: onEvent('Delete an event and its RSVPs', { 204: noContent(), 409: ErrorSchema }) }, async (request, reply) => {
    const id = eventId(request.params.id);
    await visibleEvent(id, request.actor);
    await decide(id, request.actor, { type: 'DeleteEvent', data: none });
    return reply.status(204).send();
  });

  app.get('/api/events/:id/rsvp/me', { config: { access: 'signed-in' }, schema: onEvent('The reader’s RSVP to an event', { 200: MyRsvpSchema }) }, async (request) => {
    const event = await visibleEvent(eventId(request.params.id), request.actor);
    return { status: event.rsvps[request.actor!.id] ?? null };
  });
  app.put(
    '/api/events/:id/rsvp/me',
    // 403: subscribers may not RSVP (the decider's refusal; the route itself is open to every signed-in reader).
    { config: { access: 'signed-in' }, schema: { ...onEvent('RSVP to an event: attending, maybe or not attending', { 200: RsvpChangeSchema, 403: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema }), body: RsvpSchema } },
    async (request): Promise<RsvpChange> => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      const event = await command(id, request.actor, { type: 'SetRsvp', data: { status: request.body.status } });
      return { status: event.rsvps[request.actor!.id] ?? null, ...event.attendees };
    },
  );
  app.delete('/api/events/:id/rsvp/me', { config: { access: 'signed-in' }, schema: onEvent('Take back the reader’s RSVP', { 200: RsvpChangeSchema, 409: ErrorSchema }) }, async (request): Promise<RsvpChange> => {
    const id = eventId(request.params.id);
    await visibleEvent(id, request.actor);
    const event = await command(id, request.actor, { type: 'RemoveRsvp', data: none });
    return { status: null, ...event.attendees };
  });
  app.get('/api/events/:id/attendees-count', { config: { access: 'public' }, schema: onEvent('How many answered attending, maybe and not attending', { 200: AttendeeCountsSchema }) }, async (request) =>
    (await visibleEvent(eventId(request.params.id), request.actor)).attendees,
  );

  app.get('/api/events/:id/ics', { config: { access: 'public' }, schema: onEvent('Download an event as an iCalendar file', { 200: { description: 'The event as an iCalendar (.ics) file', contentType: 'text/calendar' } }) }, async (request, reply) => {
    const event = await visibleEvent(eventId(request.params.id), request.actor);
    const name = icsFileName(event.title, event.startDate);
    return reply
      .type('text/calendar; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(calendarFile([icsEvent(event)], host, services.now()));
  });

  app.get(
    '/api/calendar.ics',
    { config: { access: 'public' }, schema: { summary: 'Subscribe to the calendar: public approved events from 90 days ago onward', tags, response: { 200: { description: 'An iCalendar feed of public approved events', contentType: 'text/calendar' } } } },
    async (_request, reply) => {
      const since = new Date(services.now().getTime() - CALENDAR_FEED_PAST_DAYS * 24 * 3600 * 1000).toISOString();
      const newestFirst = await calendar.find({ status: 'approved', isPublic: true, startDate: { $gte: since } }, { sort: { startDate: -1, _id: -1 }, limit: CALENDAR_FEED_MAX_EVENTS });
      return reply.type('text/calendar; charset=utf-8').send(calendarFile(newestFirst.reverse().map(icsEvent), host, services.now(), 'Broadcast History Community'));
    },
  );

  app.get('/api/user/events', { config: { access: 'signed-in' }, schema: { summary: 'My events: those I organise or answered, with my RSVP', tags, querystring: MyEventsQuery, response: { 200: pageSchema(CalendarEventSchema) } } }, async (request) => {
    const actor = request.actor!;
    const mine = new Map((await links.find({ memberId: actor.id })).map((link) => [link.eventId, link.rsvp]));
    const page = await findPage(calendar, { $and: [{ _id: { $in: [...mine.keys()] } }, visibility(actor)] }, SORTS.start, request.query);
    return mapPage(page, (event) => eventDto(event, actor, mine.get(event._id) ?? null));
  });

  for (const [action, type, summary] of [
    ['approve', 'ApproveEvent', 'Approve an event: it reaches the calendar'],
    ['reject', 'RejectEvent', 'Reject an event: it leaves the listings and takes no RSVPs'],
  ] as const)
    app.put(`/api/admin/events/:id/${action}`, { config: { access: STAFF }, schema: changesEvent(summary) }, async (request) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      return detailsDto(await command(id, request.actor, { type, data: none }), request.actor);
    });

  app.put('/api/admin/events/:id/feature', { config: { access: STAFF }, schema: { ...changesEvent('Feature or unfeature an event: toggles, or sets `featured` when given'), body: FeatureBody } }, async (request) => {
    const id = eventId(request.params.id);
    const current = await visibleEvent(id, request.actor);
    const featured = request.body?.featured ?? !current.isFeatured;
    return detailsDto(await command(id, request.actor, { type: featured ? 'FeatureEvent' : 'UnfeatureEvent', data: none }), request.actor);
  });

  app.get('/api/admin/events/pending', { config: { access: STAFF }, schema: eventList('The events waiting for approval, oldest first') }, (request) => list(request.query, request.actor, { status: 'pending' }, OLDEST_FIRST));
  app.get('/api/admin/events/featured', { config: { access: STAFF }, schema: eventList('The featured events') }, (request) => list(request.query, request.actor, { isFeatured: true }));
  app.get('/api/admin/events/stats', { config: { access: STAFF }, schema: { summary: 'Management’s counts: total, pending, approved, featured, public, private', tags, response: { 200: EventStatsSchema } } }, () => readEventStats(services.store));
}
