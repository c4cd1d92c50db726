/** Events, RSVP and calendar export (spec 2 §7, API.md "Events, RSVP, calendar export"). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { calendarEventDecider, type CalendarEventCommand } from '../../shared/events/event-stream';
import { EventSchema, RsvpSchema } from '../../shared/events/schemas';
import { EVENT_TYPES } from '../../shared/events/constants';
import { calendarFile, icsFileName, type IcsEvent } from '../../shared/events/ics';
import { calendarEvents, type CalendarEventDocument } from '../../projections/events/events';
import type { Filter } from '../infrastructure/document-store/port';
import { parse } from '../http/errors';
import { PARTICIPANTS, STAFF } from '../http/access';
import type { Services } from '../services';

const IdParams = v.object({ id: v.pipe(v.string(), v.uuid('Event not found')) });
const ListQuery = v.object({
  from: v.optional(v.pipe(v.string(), v.isoTimestamp('from must be an ISO date'))),
  to: v.optional(v.pipe(v.string(), v.isoTimestamp('to must be an ISO date'))),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  type: v.optional(v.picklist(EVENT_TYPES, 'Unknown event type')),
  featured: v.optional(v.picklist(['true', 'false'])),
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(500)), '500'),
});
const FeatureBody = v.nullish(v.object({ featured: v.optional(v.boolean()) }));

const isStaff = (actor: Actor | null) => actor?.role === 'admin' || actor?.role === 'staff';
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Who sees what: everyone public approved events; members also their own; staff everything. */
function visibility(actor: Actor | null): Filter {
  if (isStaff(actor)) return {};
  const open = { status: 'approved', isPublic: true };
  return actor ? { $or: [open, { organizerId: actor.id }] } : open;
}

export function eventDto(event: CalendarEventDocument, viewer: Actor | null) {
  const { _position, rsvps, rsvpMembers, organizer, ...fields } = event;
  return {
    ...fields,
    id: event._id,
    organizer: { firstName: organizer.firstName, lastName: organizer.lastName, role: organizer.role, profileImageUrl: organizer.profileImageUrl, ...(viewer ? { email: organizer.email } : {}) },
    attendeeCount: event.attendees.attending,
    ...(viewer ? { myRsvp: rsvps[viewer.id] ?? null } : {}),
  };
}

function icsEvent(event: CalendarEventDocument): IcsEvent {
  const name = `${event.organizer.firstName} ${event.organizer.lastName}`.trim();
  return { ...event, id: event._id, organizerName: name || null };
}

export async function eventRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const events = calendarEvents(services.store);
  const host = new URL(services.config.publicUrl).hostname;

  async function visibleEvent(id: string, actor: Actor | null) {
    const event = await events.findOne({ $and: [{ _id: id }, visibility(actor)] });
    if (!event) throw fail.notFound('Event not found');
    return event;
  }

  async function command(id: string, actor: Actor | null, type: CalendarEventCommand['type'], data: Record<string, unknown> = {}) {
    await services.handle(calendarEventDecider, streamName('event', id), { type, data, metadata: { now: services.now(), actor } } as CalendarEventCommand, actor ? { actorId: actor.id } : {});
    const event = await events.findOne({ _id: id });
    if (!event) throw fail.notFound('Event not found');
    return eventDto(event, actor);
  }

  app.get('/api/events', { config: { access: 'public' } }, async (request) => {
    const query = parse(ListQuery, request.query);
    const conditions: Filter[] = [visibility(request.actor), { status: { $ne: 'rejected' } }];
    if (query.from) conditions.push({ startDate: { $gte: new Date(query.from).toISOString() } });
    if (query.to) conditions.push({ startDate: { $lt: new Date(query.to).toISOString() } });
    if (query.type) conditions.push({ eventType: query.type });
    if (query.featured) conditions.push({ isFeatured: query.featured === 'true' });
    if (query.q) {
      const pattern = { $regex: escapeRegex(query.q), $options: 'i' };
      conditions.push({ $or: [{ title: pattern }, { description: pattern }, { location: pattern }] });
    }
    const list = await events.find({ $and: conditions }, { sort: { startDate: 1, _id: 1 }, limit: query.limit });
    return list.map((event) => eventDto(event, request.actor));
  });

  app.get('/api/events/:id', { config: { access: 'public' } }, async (request) => eventDto(await visibleEvent(parse(IdParams, request.params).id, request.actor), request.actor));

  app.post('/api/events', { config: { access: PARTICIPANTS } }, async (request, reply) => {
    const fields = parse(EventSchema, request.body);
    const id = randomUUID();
    return reply.status(201).send(await command(id, request.actor, 'ScheduleEvent', { id, fields }));
  });

  app.put('/api/events/:id', { config: { access: PARTICIPANTS } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    await visibleEvent(id, request.actor);
    return command(id, request.actor, 'EditEvent', { fields: parse(EventSchema, request.body) });
  });

  app.delete('/api/events/:id', { config: { access: STAFF } }, async (request, reply) => {
    const { id } = parse(IdParams, request.params);
    await services.handle(calendarEventDecider, streamName('event', id), { type: 'DeleteEvent', data: {}, metadata: { now: services.now(), actor: request.actor } }, { actorId: request.actor!.id });
    return reply.status(204).send();
  });

  app.get('/api/events/:id/rsvp/me', { config: { access: 'signed-in' } }, async (request) => {
    const event = await visibleEvent(parse(IdParams, request.params).id, request.actor);
    return { status: event.rsvps[request.actor!.id] ?? null };
  });
  app.put('/api/events/:id/rsvp/me', { config: { access: 'signed-in' } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    await visibleEvent(id, request.actor);
    const { status } = parse(RsvpSchema, request.body);
    const event = await command(id, request.actor, 'SetRsvp', { status });
    return { status: event.myRsvp ?? null, ...event.attendees };
  });
  app.delete('/api/events/:id/rsvp/me', { config: { access: 'signed-in' } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    await visibleEvent(id, request.actor);
    const event = await command(id, request.actor, 'RemoveRsvp');
    return { status: null, ...event.attendees };
  });
  app.get('/api/events/:id/attendees-count', { config: { access: 'public' } }, async (request) => (await visibleEvent(parse(IdParams, request.params).id, request.actor)).attendees);

  app.get('/api/events/:id/ics', { config: { access: 'public' } }, async (request, reply) => {
    const event = await visibleEvent(parse(IdParams, request.params).id, request.actor);
    const name = icsFileName(event.title, event.startDate);
    return reply
      .type('text/calendar; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(calendarFile([icsEvent(event)], host, services.now()));
  });

  app.get('/api/calendar.ics', { config: { access: 'public' } }, async (_request, reply) => {
    const list = await events.find({ status: 'approved', isPublic: true }, { sort: { startDate: 1, _id: 1 } });
    return reply.type('text/calendar; charset=utf-8').send(calendarFile(list.map(icsEvent), host, services.now(), 'Broadcast History Community'));
  });

  app.get('/api/user/events', { config: { access: 'signed-in' } }, async (request) => {
    const me = request.actor!.id;
    const list = await events.find({ $or: [{ organizerId: me }, { rsvpMembers: me }] }, { sort: { startDate: 1, _id: 1 } });
    return list.map((event) => eventDto(event, request.actor));
  });

  for (const [action, type] of [
    ['approve', 'ApproveEvent'],
    ['reject', 'RejectEvent'],
  ] as const)
    app.put(`/api/admin/events/:id/${action}`, { config: { access: STAFF } }, async (request) => command(parse(IdParams, request.params).id, request.actor, type));

  app.put('/api/admin/events/:id/feature', { config: { access: STAFF } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    const body = parse(FeatureBody, request.body);
    const current = await visibleEvent(id, request.actor);
    const featured = body?.featured ?? !current.isFeatured;
    return command(id, request.actor, featured ? 'FeatureEvent' : 'UnfeatureEvent');
  });

  app.get('/api/admin/events/pending', { config: { access: STAFF } }, async (request) =>
    (await events.find({ status: 'pending' }, { sort: { createdAt: 1, _id: 1 } })).map((event) => eventDto(event, request.actor)),
  );
  app.get('/api/admin/events/featured', { config: { access: STAFF } }, async (request) =>
    (await events.find({ isFeatured: true }, { sort: { startDate: 1, _id: 1 } })).map((event) => eventDto(event, request.actor)),
  );
  app.get('/api/admin/events/stats', { config: { access: STAFF } }, async () => {
    const [total, pending, approved, featured, isPublic] = await Promise.all([
      events.countDocuments({}),
      events.countDocuments({ status: 'pending' }),
      events.countDocuments({ status: 'approved' }),
      events.countDocuments({ isFeatured: true }),
      events.countDocuments({ isPublic: true }),
    ]);
    return { total, pending, approved, featured, public: isPublic, private: total - isPublic };
  });
}
