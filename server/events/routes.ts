/** Events, RSVP and calendar export (docs/domain/events.md). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { calendarEventDecider, isModerator, type CalendarEventCommand } from '../../shared/events/event-stream';
import { EventSchema, RsvpSchema } from '../../shared/events/schemas';
import { EVENT_TYPES, type RsvpStatus } from '../../shared/events/constants';
import { calendarFile, icsFileName, type IcsEvent } from '../../shared/events/ics';
import { text } from '../../shared/text-schema';
import { calendarEvents, eventDetails, type CalendarEventDocument, type EventDetailsDocument } from '../../projections/events/events';
import { memberEvents } from '../../projections/events/member-events';
import { readEventStats } from '../../projections/events/event-stats';
import type { Filter, Sort } from '../../platform/document-store/port';
import { parse } from '../http/errors';
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
function eventIdOf(params: unknown): string {
  const { id } = parse(IdParams, params);
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

/** The event as the spec's entity; organizer e-mails only for staff (the dialog's admin information). */
function eventDto(event: CalendarEventDocument | EventDetailsDocument, viewer: Actor | null, myRsvp?: RsvpStatus | null) {
  const { _id, _position, organizer, ...rest } = event;
  const { rsvps, search, ...fields } = rest as typeof rest & { rsvps?: unknown; search?: unknown };
  return {
    ...fields,
    id: _id,
    organizer: { firstName: organizer.firstName, lastName: organizer.lastName, role: organizer.role, profileImageUrl: organizer.profileImageUrl, ...(isStaff(viewer) ? { email: organizer.email } : {}) },
    attendeeCount: event.attendees.attending,
    ...(myRsvp !== undefined ? { myRsvp } : {}),
  };
}

const detailsDto = (event: EventDetailsDocument, viewer: Actor | null) => eventDto(event, viewer, viewer ? (event.rsvps[viewer.id] ?? null) : undefined);

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

export async function eventRoutes(app: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> }) {
  const details = eventDetails(services.store);
  const calendar = calendarEvents(services.store);
  const links = memberEvents(services.store);
  const host = new URL(services.config.publicUrl).hostname;

  async function visibleEvent(id: string, actor: Actor | null) {
    const event = await details.findOne({ _id: id });
    if (!event || !canSee(event, actor)) throw fail.notFound('Event not found');
    return event;
  }

  /** Runs a command on the event's stream; the answer is the event as every query now shows it. */
  async function command(id: string, actor: Actor | null, type: CalendarEventCommand['type'], data: Record<string, unknown> = {}) {
    await services.handle(calendarEventDecider, streamName('event', id), { type, data, metadata: { now: services.now(), actor } } as CalendarEventCommand, actor ? { actorId: actor.id } : {});
    const event = await details.findOne({ _id: id });
    if (!event) throw fail.notFound('Event not found');
    return event;
  }

  async function list(request: { query: unknown; actor: Actor | null }, fixed: Filter = {}, defaultSort: Sort = SORTS.start) {
    const query = parse(ListQuery, request.query);
    const page = await findPage(calendar, listFilter(query, request.actor, fixed), query.sort ? SORTS[query.sort] : defaultSort, query);
    return mapPage(page, (event) => eventDto(event, request.actor));
  }

  app.get('/api/events', { config: { access: 'public' } }, (request) => list(request));

  app.get('/api/events/:id', { config: { access: 'public' } }, async (request) => detailsDto(await visibleEvent(eventIdOf(request.params), request.actor), request.actor));

  app.post('/api/events', { config: { access: PARTICIPANTS, rateLimit: { max: services.config.rateLimits.events, timeWindow: '1 minute' } } }, async (request, reply) => {
    const fields = parse(EventSchema, request.body);
    const id = randomUUID();
    return reply.status(201).send(detailsDto(await command(id, request.actor, 'ScheduleEvent', { id, fields }), request.actor));
  });

  app.put('/api/events/:id', { config: { access: PARTICIPANTS } }, async (request) => {
    const id = eventIdOf(request.params);
    await visibleEvent(id, request.actor);
    return detailsDto(await command(id, request.actor, 'EditEvent', { fields: parse(EventSchema, request.body) }), request.actor);
  });

  app.delete('/api/events/:id', { config: { access: STAFF } }, async (request, reply) => {
    const id = eventIdOf(request.params);
    await visibleEvent(id, request.actor);
    await services.handle(calendarEventDecider, streamName('event', id), { type: 'DeleteEvent', data: {}, metadata: { now: services.now(), actor: request.actor } }, { actorId: request.actor!.id });
    return reply.status(204).send();
  });

  app.get('/api/events/:id/rsvp/me', { config: { access: 'signed-in' } }, async (request) => {
    const event = await visibleEvent(eventIdOf(request.params), request.actor);
    return { status: event.rsvps[request.actor!.id] ?? null };
  });
  app.put('/api/events/:id/rsvp/me', { config: { access: 'signed-in' } }, async (request) => {
    const id = eventIdOf(request.params);
    await visibleEvent(id, request.actor);
    const { status } = parse(RsvpSchema, request.body);
    const event = await command(id, request.actor, 'SetRsvp', { status });
    return { status: event.rsvps[request.actor!.id] ?? null, ...event.attendees };
  });
  app.delete('/api/events/:id/rsvp/me', { config: { access: 'signed-in' } }, async (request) => {
    const id = eventIdOf(request.params);
    await visibleEvent(id, request.actor);
    const event = await command(id, request.actor, 'RemoveRsvp');
    return { status: null, ...event.attendees };
  });
  app.get('/api/events/:id/attendees-count', { config: { access: 'public' } }, async (request) => (await visibleEvent(eventIdOf(request.params), request.actor)).attendees);

  app.get('/api/events/:id/ics', { config: { access: 'public' } }, async (request, reply) => {
    const event = await visibleEvent(eventIdOf(request.params), request.actor);
    const name = icsFileName(event.title, event.startDate);
    return reply
      .type('text/calendar; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(calendarFile([icsEvent(event)], host, services.now()));
  });

  app.get('/api/calendar.ics', { config: { access: 'public' } }, async (_request, reply) => {
    const since = new Date(services.now().getTime() - CALENDAR_FEED_PAST_DAYS * 24 * 3600 * 1000).toISOString();
    const newestFirst = await calendar.find({ status: 'approved', isPublic: true, startDate: { $gte: since } }, { sort: { startDate: -1, _id: -1 }, limit: CALENDAR_FEED_MAX_EVENTS });
    return reply.type('text/calendar; charset=utf-8').send(calendarFile(newestFirst.reverse().map(icsEvent), host, services.now(), 'Broadcast History Community'));
  });

  app.get('/api/user/events', { config: { access: 'signed-in' } }, async (request) => {
    const actor = request.actor!;
    const query = parse(MyEventsQuery, request.query);
    const mine = new Map((await links.find({ memberId: actor.id })).map((link) => [link.eventId, link.rsvp]));
    const page = await findPage(calendar, { $and: [{ _id: { $in: [...mine.keys()] } }, visibility(actor)] }, SORTS.start, query);
    return mapPage(page, (event) => eventDto(event, actor, mine.get(event._id) ?? null));
  });

  for (const [action, type] of [
    ['approve', 'ApproveEvent'],
    ['reject', 'RejectEvent'],
  ] as const)
    app.put(`/api/admin/events/:id/${action}`, { config: { access: STAFF } }, async (request) => {
      const id = eventIdOf(request.params);
      await visibleEvent(id, request.actor);
      return detailsDto(await command(id, request.actor, type), request.actor);
    });

  app.put('/api/admin/events/:id/feature', { config: { access: STAFF } }, async (request) => {
    const id = eventIdOf(request.params);
    const body = parse(FeatureBody, request.body);
    const current = await visibleEvent(id, request.actor);
    const featured = body?.featured ?? !current.isFeatured;
    return detailsDto(await command(id, request.actor, featured ? 'FeatureEvent' : 'UnfeatureEvent'), request.actor);
  });

  app.get('/api/admin/events/pending', { config: { access: STAFF } }, (request) => list(request, { status: 'pending' }, OLDEST_FIRST));
  app.get('/api/admin/events/featured', { config: { access: STAFF } }, (request) => list(request, { isFeatured: true }));
  app.get('/api/admin/events/stats', { config: { access: STAFF } }, () => readEventStats(services.store));
}
