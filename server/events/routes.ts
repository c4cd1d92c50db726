/** Events, RSVP and calendar export (docs/domain/events.md). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { DomainError, fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import {
  attendeeCounts,
  calendarEventDecider,
  isModerator,
  seatsOf,
  type CalendarEventCommand,
  type CalendarEventState,
} from '../../shared/events/event-stream';
import {
  AttendeeCountsSchema,
  CancelOccurrenceSchema,
  MoveOccurrenceSchema,
  CalendarEventSchema,
  EventSchema,
  EventStatsSchema,
  MyRsvpSchema,
  OccurrenceQuerySchema,
  RsvpChangeSchema,
  RsvpSchema,
  UseCancelSchema,
  WaitlistSchema,
  type EventFields,
  type RsvpChange,
  type Waitlist,
} from '../../shared/events/schemas';
import { pageSchema } from '../../shared/page';
import { EVENT_TYPES, USE_CANCEL, USE_CANCEL_MESSAGE } from '../../shared/events/constants';
import { calendarFile, icsFileName, type IcsEvent } from '../../shared/events/ics';
import { text } from '../../shared/text-schema';
import { ReasonSchema } from '../../shared/feed/schemas';
import {
  calendarEvents,
  calendarFeeds,
  canSee,
  detailsDto,
  eventDetails,
  eventDto,
  memberEvents,
  atOccurrence,
  hasOccurrence,
  occurrenceField,
  occurrenceKey,
  occurrencePage,
  occurrencesOf,
  SERIES_MAX,
  readEventStats,
  standing,
  standingOf,
  visibility,
  type CalendarEventDocument,
  type EventDetailsDocument,
} from '../../projections/events';
import { calendarFeedDecider } from '../../shared/events/calendar-feed-stream';
import { calendarFeedToken, hashSubscriptionToken as hashToken } from '../../platform/mail/link-tokens';
import { membersCollection } from '../../projections/members';
import type { Filter, Sort } from '../../platform/document-store/port';
import { attachedMedia, type MediaSources } from '../media/attachments';
import { ErrorSchema, noContent, type ResponseSchema, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { Intent } from '../../platform/command-handler';
import { findPage, mapPage, OLDEST_FIRST, pageOfSorted, pageQuery } from '../http/pagination';
import { createReadCache } from '../http/read-cache';
import { PARTICIPANTS, STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { escapeRegex } from '../../shared/text';
import { occursOn } from '../../shared/events/dates';
import { recurrenceProblem, ruleOf } from '../../shared/events/recurrence';
import { knownId } from '../http/ids';

/** A list's page when the caller names no limit: a month of the calendar fits. */
const LIST_PAGE = 100;
const DAY_MS = 24 * 3600 * 1000;
/** The most events one day's list reads: far more than any day of a community's calendar holds. */
const DAY_LIST_MAX = 500;
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
/** How far back the subscribable feed reaches, by start: calendar apps keep what they have already fetched. */
const CALENDAR_FEED_PAST_DAYS = 90;
/** The most events the feed carries; past it those that started longest ago are left out first. */
const CALENDAR_FEED_MAX_EVENTS = 500;

const IdParams = v.object({ id: text() });
const eventId = (id: string) => knownId(id, 'Event not found');
const isoDate = (name: string) =>
  v.optional(
    v.pipe(
      text(),
      v.check((s) => !Number.isNaN(Date.parse(s)), `${name} must be a date`),
      v.transform((s) => new Date(s).toISOString()),
    ),
  );
const SORTS = { start: { startDate: 1, _id: 1 }, created: { createdAt: -1, _id: 1 }, title: { title: 1, _id: 1 } } satisfies Record<
  string,
  Sort
>;
const ListQuery = v.object({
  from: isoDate('from'),
  to: isoDate('to'),
  q: v.optional(v.pipe(text(), v.trim(), v.maxLength(200, 'Search at most 200 characters'))),
  type: v.optional(v.picklist(EVENT_TYPES, 'Unknown event type')),
  featured: v.optional(v.picklist(['true', 'false'], 'featured must be true or false')),
  /** Rejected events leave every list unless asked for (management's All Events). */
  status: v.optional(v.picklist(['pending', 'approved', 'rejected', 'any'], 'status must be pending, approved, rejected or any')),
  sort: v.optional(v.picklist(['start', 'created', 'title'], 'sort must be start, created or title')),
  /** Every event shown on this day of the calendar (all of them, in one page), read in `tz` or the site's zone. */
  day: v.optional(
    v.pipe(
      text(),
      v.regex(/^\d{4}-\d{2}-\d{2}$/u, 'day must be a date written YYYY-MM-DD'),
      v.check((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'day must be a date written YYYY-MM-DD'),
    ),
  ),
  tz: v.optional(v.pipe(text(), v.check(isTimeZone, 'tz must be a time zone such as America/Chicago'))),
  ...pageQuery(LIST_PAGE),
});
type ListQuery = v.InferOutput<typeof ListQuery>;
const MyEventsQuery = v.object(pageQuery(50));
const CalendarUrlSchema = v.object({ url: v.string() });
const RemindersSchema = v.object({ enabled: v.boolean('enabled must be true or false') });
const FeedFileParams = v.object({ file: text() });
const FeatureBody = v.nullish(v.object({ featured: v.optional(v.boolean('featured must be true or false')) }));

/** The form's fields as the stream records them: `mediaId` made the upload it names (null: none, so an edit can take it away). */
async function withMedia(
  sources: MediaSources,
  { mediaId, ...fields }: v.InferOutput<typeof EventSchema>,
  actor: Actor,
): Promise<EventFields> {
  return { ...fields, media: (await attachedMedia(sources, mediaId, actor)) ?? null };
}

/** A repeat the series cannot keep (a start off the rule's days, an end before the start): a 400 on the form's field. */
function checkRecurrence(fields: v.InferOutput<typeof EventSchema>, timeZone: string) {
  const problem = recurrenceProblem(fields, timeZone);
  if (problem) throw fail.invalid(problem, { recurrenceRule: problem });
}

/**
 * The reader's standing after an RSVP, with the event's counts, as the event's stream decided them: under a rush
 * of RSVPs the read models may lag behind, and the answer must still give the place in line it recorded.
 */
function rsvpChange(state: CalendarEventState, memberId: string, occurrence?: string): RsvpChange {
  const seats = seatsOf(state, occurrence);
  return {
    ...standing(seats.waiting, seats.rsvps.get(memberId), memberId),
    ...attendeeCounts(seats.rsvps.values()),
    waitlistCount: seats.waiting.length,
  };
}

/** `timeZone`: the site's, which a recurring event's occurrences keep their wall-clock time in. */
function icsEvent(event: EventDetailsDocument | CalendarEventDocument, siteUrl: string, timeZone: string): IcsEvent {
  const name = `${event.organizer.firstName} ${event.organizer.lastName}`.trim();
  return {
    ...event,
    id: event._id,
    organizerName: name || null,
    url: `${siteUrl}/events/${event._id}`,
    sequence: event.sequence ?? 0,
    timeZone,
  };
}

/**
 * One date of a series as an event of its own (its own UID, no rule), at its time and cancelled when it was: a member's
 * feed carries a later date they answered alone this way, not the whole series.
 */
function occurrenceIcsEvent(date: CalendarEventDocument, occurrence: string, siteUrl: string, timeZone: string): IcsEvent {
  return { ...icsEvent(date, siteUrl, timeZone), id: `${date._id}-${occurrenceField(occurrence)}`, recurrenceRule: '', changes: {} };
}

/**
 * The calendar's filter for a list query, within what the caller may see: of every event by its start (`all`), of the
 * one-off events only (`singles`), or of the series that may reach into the dates asked for (`series`; their
 * occurrences are made when read, projections/events/occurrences.ts).
 */
function listFilter(query: ListQuery, actor: Actor | null, fixed: Filter = {}, events: 'all' | 'singles' | 'series' = 'all'): Filter {
  const conditions: Filter[] = [visibility(actor), fixed];
  if (events === 'singles') conditions.push({ recurs: { $ne: true } });
  if (events === 'series') {
    conditions.push({ recurs: true });
    if (query.from) conditions.push({ reach: { $gte: query.from } });
    if (query.to) conditions.push({ startDate: { $lt: query.to } });
    query = { ...query, from: undefined, to: undefined };
  }
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

export async function eventRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'eventStore' | 'handle' | 'config' | 'now' | 'progress' | 'siteTimeZone'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const feeds = calendarFeeds(services.store);
  const details = eventDetails(services.store);
  const calendar = calendarEvents(services.store);
  /** Calendar pages, kept until the next event (server/http/read-cache.ts); each reader's view is made from them. */
  const cached = createReadCache(services.progress);
  const links = memberEvents(services.store);
  const members = membersCollection(services.store);
  const host = new URL(services.config.publicUrl).hostname;
  const route = routeOptions(['events']);
  const none = {} as Record<string, never>;
  /** One event's call: its id in the path; 404 for an event the caller may not see, as for one that does not exist. */
  const onEvent = <Answers extends Record<number, ResponseSchema>>(response: Answers) => ({
    params: IdParams,
    response: { ...response, 404: ErrorSchema },
  });
  /** A command on an event: refused when someone else changed it at the same moment (409). */
  const changesEvent = () => onEvent({ 200: CalendarEventSchema, 409: ErrorSchema });
  const eventList = () => ({ querystring: ListQuery, response: { 200: pageSchema(CalendarEventSchema) } });

  async function visibleEvent(id: string, actor: Actor | null) {
    const event = await details.findOne({ _id: id });
    if (!event || !canSee(event, actor)) throw fail.notFound('Event not found');
    return event;
  }
  /** The occurrence a call names, as the event's stream keys it (undefined: the first, or a one-off event); 400 for one the series lacks. */
  const occurrenceOf = async (event: EventDetailsDocument, occurrence: string | undefined) =>
    occurrenceKey(event, await services.siteTimeZone(), occurrence);
  /** The event, or the named occurrence of a series, as its reader sees it. */
  async function visibleOccurrence(id: string, actor: Actor | null, occurrence: string | undefined) {
    const event = await visibleEvent(id, actor);
    if (!occurrence) return event;
    return atOccurrence(event, (await occurrenceOf(event, occurrence)) ?? new Date(event.startDate).toISOString());
  }

  const decide = (id: string, actor: Actor | null, intent: Intent<CalendarEventCommand>) =>
    services.handle(
      calendarEventDecider,
      streamName('event', id),
      { ...intent, metadata: { now: services.now(), actor } },
      actor ? { actorId: actor.id } : {},
    );
  /** Runs a command on the event's stream; the answer is the event as every query now shows it. */
  async function command(id: string, actor: Actor | null, intent: Intent<CalendarEventCommand>) {
    await decide(id, actor, intent);
    const event = await details.findOne({ _id: id });
    if (!event) throw fail.notFound('Event not found');
    return event;
  }

  async function list(query: ListQuery, actor: Actor | null, fixed: Filter = {}, defaultSort: Sort = SORTS.start) {
    if (query.day) return dayList(query, query.day, actor);
    const sort = query.sort ? SORTS[query.sort] : defaultSort;
    if (sort === SORTS.start && Object.keys(fixed).length === 0) {
      // The calendar by start shows a series as its occurrences within the dates asked for (staff lists, as one event).
      const zone = await services.siteTimeZone();
      const filters = { singles: listFilter(query, actor, fixed, 'singles'), series: listFilter(query, actor, fixed, 'series') };
      const page = await cached(`occurrences:${JSON.stringify([filters, zone, query.from, query.to, query.cursor, query.limit])}`, () =>
        occurrencePage(calendar, filters, query, zone),
      );
      return mapPage(page, (event) => eventDto(event, actor));
    }
    const filter = listFilter(query, actor, fixed);
    const page = await cached(`list:${JSON.stringify([filter, sort, query.cursor, query.limit])}`, () =>
      findPage(calendar, filter, sort, query),
    );
    return mapPage(page, (event) => eventDto(event, actor));
  }

  /**
   * A day of the calendar (its "+N more"): every event shown on it, as the month grid shows them (occursOn). Whatever the
   * zone (±14 hours), such an event starts before the next UTC day ends and ends after the previous UTC day began; the
   * store narrows to that, the rule decides.
   */
  async function dayList(query: ListQuery, day: string, actor: Actor | null) {
    const start = Date.parse(`${day}T00:00:00Z`);
    const near = {
      $and: [
        listFilter(query, actor),
        { startDate: { $lt: new Date(start + 2 * DAY_MS).toISOString() } },
        { endDate: { $gte: new Date(start - DAY_MS).toISOString() } },
      ],
    };
    const siteZone = await services.siteTimeZone();
    const zone = query.tz ?? siteZone;
    const singles = await calendar.find({ $and: [near, { recurs: { $ne: true } }] }, { sort: SORTS.start, limit: DAY_LIST_MAX });
    // A series' occurrences near the day (one that started up to its length before it may still run on it).
    const series = await calendar.find(
      {
        $and: [
          listFilter(query, actor, {}, 'series'),
          { startDate: { $lt: new Date(start + 2 * DAY_MS).toISOString() } },
          { reach: { $gte: new Date(start - DAY_MS).toISOString() } },
        ],
      },
      { sort: SORTS.start, limit: SERIES_MAX },
    );
    const occurrences = series.flatMap((event) =>
      occurrencesOf(event, siteZone, {
        from: new Date(start - DAY_MS - (Date.parse(event.endDate) - Date.parse(event.startDate))).toISOString(),
        to: new Date(start + 2 * DAY_MS).toISOString(),
      }),
    );
    const candidates = [...singles, ...occurrences].sort((a, b) => a.startDate.localeCompare(b.startDate) || a._id.localeCompare(b._id));
    return { items: candidates.filter((event) => occursOn(event, day, zone)).map((event) => eventDto(event, actor)), nextCursor: null };
  }

  app.get(
    '/api/events',
    route(
      'public',
      'The calendar: events by start, filtered by dates, search, type, featured or status; or every event of one `day`',
      eventList(),
    ),
    (request) => list(request.query, request.actor),
  );

  app.get(
    '/api/events/:id',
    route('public', 'One event, with the reader’s RSVP when signed in; with `occurrence`, one occurrence of a recurring event', {
      ...onEvent({
        200: CalendarEventSchema,
        400: ErrorSchema,
      }),
      querystring: OccurrenceQuerySchema,
    }),
    async (request) =>
      detailsDto(await visibleOccurrence(eventId(request.params.id), request.actor, request.query.occurrence), request.actor),
  );

  app.post(
    '/api/events',
    route(
      PARTICIPANTS,
      'Create an event; staff events are approved at once, members’ wait for approval',
      { body: EventSchema, response: { 201: CalendarEventSchema } },
      { rateLimit: { max: services.config.rateLimits.events, timeWindow: '1 minute' } },
    ),
    async (request, reply) => {
      checkRecurrence(request.body, await services.siteTimeZone());
      const id = randomUUID();
      return reply.status(201).send(
        detailsDto(
          await command(id, request.actor, {
            type: 'ScheduleEvent',
            data: { id, fields: await withMedia(services, request.body, request.actor!) },
          }),
          request.actor,
        ),
      );
    },
  );

  app.put(
    '/api/events/:id',
    route(
      PARTICIPANTS,
      'Edit an event (its organizer or staff); a member’s edit of an approved event waits for staff as a revision (`pendingRevision`) while everyone keeps the approved event',
      {
        ...onEvent({
          200: CalendarEventSchema,
          409: ErrorSchema,
          422: ErrorSchema,
        }),
        body: EventSchema,
      },
    ),
    async (request) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      checkRecurrence(request.body, await services.siteTimeZone());
      return detailsDto(
        await command(id, request.actor, { type: 'EditEvent', data: { fields: await withMedia(services, request.body, request.actor!) } }),
        request.actor,
      );
    },
  );

  app.post(
    '/api/events/:id/cancel',
    route(
      PARTICIPANTS,
      'Cancel an event (its organizer or staff): it stays listed as cancelled and takes no more RSVPs',
      onEvent({
        200: CalendarEventSchema,
        403: ErrorSchema,
        409: ErrorSchema,
      }),
    ),
    async (request) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      return detailsDto(await command(id, request.actor, { type: 'CancelEvent', data: none }), request.actor);
    },
  );

  /**
   * One date of a recurring event cancelled or moved alone (its organizer or staff): the date the body names must be
   * one of the series' (400 otherwise); the answer is that date as the calendar now shows it.
   */
  async function changeOccurrence(
    id: string,
    actor: Actor | null,
    occurrence: string,
    change: (start: string, timeZone: string) => Intent<CalendarEventCommand>,
  ) {
    const event = await visibleEvent(id, actor);
    const zone = await services.siteTimeZone();
    if (!ruleOf(event)) throw fail.rule('This event does not repeat: edit or cancel the event itself');
    const start = (await occurrenceOf(event, occurrence)) ?? new Date(event.startDate).toISOString();
    return detailsDto(atOccurrence(await command(id, actor, change(start, zone)), start), actor);
  }
  const onOccurrence = (operationId: string) => ({
    ...onEvent({ 200: CalendarEventSchema, 400: ErrorSchema, 403: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema }),
    operationId,
  });

  app.post(
    '/api/events/:id/occurrences/cancel',
    route(
      PARTICIPANTS,
      'Cancel one date of a recurring event (its organizer or staff), named by `occurrence` (its `occurrenceStart`): it stays listed as cancelled, takes no RSVPs, and those attending or waiting are told, with a calendar file whose series has that date as an EXDATE. 400: a date the series lacks; 409: one already cancelled or past',
      { ...onOccurrence('cancelEventOccurrence'), body: CancelOccurrenceSchema },
    ),
    async (request) =>
      changeOccurrence(eventId(request.params.id), request.actor, request.body.occurrence, (occurrence) => ({
        type: 'CancelOccurrence',
        data: { occurrence, ...(request.body.reason ? { reason: request.body.reason } : {}) },
      })),
  );

  app.post(
    '/api/events/:id/occurrences/move',
    route(
      PARTICIPANTS,
      'Move one date of a recurring event (its organizer or staff), named by `occurrence` (its `occurrenceStart`), to a new `startDate` and `endDate`; its RSVPs and waiting list stay with it, and those attending are told, with a calendar file holding that date’s own VEVENT (RECURRENCE-ID). 400: a date the series lacks; 409: one cancelled or past, or a new start another date has',
      { ...onOccurrence('moveEventOccurrence'), body: MoveOccurrenceSchema },
    ),
    async (request) =>
      changeOccurrence(eventId(request.params.id), request.actor, request.body.occurrence, (occurrence, timeZone) => ({
        type: 'MoveOccurrence',
        data: { occurrence, startDate: request.body.startDate, endDate: request.body.endDate, timeZone },
      })),
  );

  app.delete(
    '/api/events/:id',
    route(
      STAFF,
      'Delete an event and its RSVPs; one that someone attends or waits for is cancelled instead (a second delete removes it)',
      onEvent({ 204: noContent(), 409: ErrorSchema }),
    ),
    async (request, reply) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      await decide(id, request.actor, { type: 'DeleteEvent', data: none });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/events/:id/rsvp/me',
    route('signed-in', 'The reader’s RSVP to an event (or one `occurrence` of a recurring one), or their place in its waiting list', {
      ...onEvent({
        200: MyRsvpSchema,
        400: ErrorSchema,
      }),
      querystring: OccurrenceQuerySchema,
    }),
    async (request) =>
      standingOf(await visibleOccurrence(eventId(request.params.id), request.actor, request.query.occurrence), request.actor!.id),
  );
  app.put(
    '/api/events/:id/rsvp/me',
    // 403: subscribers may not RSVP (the decider's refusal; the route itself is open to every signed-in reader).
    route(
      'signed-in',
      'RSVP to an event: attending, maybe or not attending; for a recurring event, to one `occurrence` (its start; none: the first), each with its own places and waiting list. Attending a full event puts the reader on its waiting list (status `waitlisted` with their position); with the waiting list off it is refused (409)',
      {
        ...onEvent({
          200: RsvpChangeSchema,
          400: ErrorSchema,
          403: ErrorSchema,
          409: ErrorSchema,
          422: ErrorSchema,
        }),
        body: RsvpSchema,
      },
    ),
    async (request) => {
      const id = eventId(request.params.id);
      const occurrence = await occurrenceOf(await visibleEvent(id, request.actor), request.body.occurrence);
      const { status } = request.body;
      return rsvpChange(
        (await decide(id, request.actor, { type: 'SetRsvp', data: occurrence ? { status, occurrence } : { status } })).state,
        request.actor!.id,
        occurrence,
      );
    },
  );
  app.delete(
    '/api/events/:id/rsvp/me',
    route(
      'signed-in',
      'Take back the reader’s RSVP (to one `occurrence` of a recurring event), or leave the waiting list; a place freed goes to the first in line',
      { ...onEvent({ 200: RsvpChangeSchema, 400: ErrorSchema, 409: ErrorSchema }), querystring: OccurrenceQuerySchema },
    ),
    async (request) => {
      const id = eventId(request.params.id);
      const occurrence = await occurrenceOf(await visibleEvent(id, request.actor), request.query.occurrence);
      return rsvpChange(
        (await decide(id, request.actor, { type: 'RemoveRsvp', data: occurrence ? { occurrence } : none })).state,
        request.actor!.id,
        occurrence,
      );
    },
  );
  app.get(
    '/api/events/:id/waitlist',
    route(
      'signed-in',
      'Who waits for a place, first in line first (the organizer and staff)',
      onEvent({ 200: WaitlistSchema, 403: ErrorSchema }),
    ),
    async (request): Promise<Waitlist> => {
      const actor = request.actor!;
      const event = await visibleEvent(eventId(request.params.id), actor);
      if (event.organizerId !== actor.id && !isModerator(actor))
        throw fail.forbidden('Only the organizer and staff can see the waiting list');
      const waiting = event.waiting ?? [];
      const names = new Map((await members.find({ _id: { $in: waiting } })).map((member) => [member._id, member]));
      return {
        items: waiting.map((memberId, index) => ({
          memberId,
          firstName: names.get(memberId)?.firstName ?? '',
          lastName: names.get(memberId)?.lastName ?? '',
          position: index + 1,
        })),
      };
    },
  );
  app.get(
    '/api/events/:id/attendees-count',
    route('public', 'How many answered attending, maybe and not attending (of one `occurrence` of a recurring event)', {
      ...onEvent({
        200: AttendeeCountsSchema,
        400: ErrorSchema,
      }),
      querystring: OccurrenceQuerySchema,
    }),
    async (request) => (await visibleOccurrence(eventId(request.params.id), request.actor, request.query.occurrence)).attendees,
  );

  app.get(
    '/api/events/:id/ics',
    route(
      'public',
      'Download an event as an iCalendar file',
      onEvent({
        200: { description: 'The event as an iCalendar (.ics) file', contentType: 'text/calendar' },
      }),
    ),
    async (request, reply) => {
      const event = await visibleEvent(eventId(request.params.id), request.actor);
      const name = icsFileName(event.title, event.startDate);
      return reply
        .type('text/calendar; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .send(calendarFile([icsEvent(event, services.config.publicUrl, await services.siteTimeZone())], host, services.now()));
    },
  );

  app.get(
    '/api/calendar.ics',
    route('public', 'Subscribe to the calendar: public approved events from 90 days ago onward', {
      response: { 200: { description: 'An iCalendar feed of public approved events', contentType: 'text/calendar' } },
    }),
    async (_request, reply) => {
      const since = new Date(services.now().getTime() - CALENDAR_FEED_PAST_DAYS * 24 * 3600 * 1000).toISOString();
      // Calendar apps poll it: made once until the next event (or the next day, which moves its window).
      const file = await cached(`ics:${since.slice(0, 10)}`, async () => {
        const zone = await services.siteTimeZone();
        // A series that began earlier but still runs is carried too.
        const newestFirst = await calendar.find(
          { status: 'approved', isPublic: true, $or: [{ startDate: { $gte: since } }, { recurs: true, reach: { $gte: since } }] },
          { sort: { startDate: -1, _id: -1 }, limit: CALENDAR_FEED_MAX_EVENTS },
        );
        return calendarFile(
          newestFirst.reverse().map((event) => icsEvent(event, services.config.publicUrl, zone)),
          host,
          services.now(),
          'Broadcast History Community',
        );
      });
      return reply.type('text/calendar; charset=utf-8').send(file);
    },
  );

  /** The member's feed URL: the current generation's, or a first one issued now. */
  async function calendarUrl(actor: Actor, reset: boolean) {
    const current = (await feeds.findOne({ _id: actor.id }))?.generation ?? 0;
    let generation = current;
    if (reset || current === 0) {
      generation = current + 1;
      const tokenHash = hashToken(calendarFeedToken(services.config.subscriptionLinkSecret, actor.id, generation));
      await services.handle(
        calendarFeedDecider,
        streamName('calendar', actor.id),
        { type: 'IssueCalendarFeed', data: { memberId: actor.id, generation, tokenHash }, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
    }
    return {
      url: `${services.config.publicUrl}/api/calendar/${calendarFeedToken(services.config.subscriptionLinkSecret, actor.id, generation)}.ics`,
    };
  }
  app.get(
    '/api/me/calendar-url',
    route('signed-in', 'My private calendar feed’s URL (issued on first ask): the events I attend, organise or wait for', {
      response: { 200: CalendarUrlSchema, 409: ErrorSchema },
    }),
    (request) => calendarUrl(request.actor!, false),
  );
  app.post(
    '/api/me/calendar-url/reset',
    route('signed-in', 'Make a new private calendar feed URL; the old one then answers 404', {
      response: { 200: CalendarUrlSchema, 409: ErrorSchema },
    }),
    (request) => calendarUrl(request.actor!, true),
  );
  app.get(
    '/api/me/event-reminders',
    route('signed-in', 'Whether I am reminded by e-mail a day before the events I attend', { response: { 200: RemindersSchema } }),
    async (request) => ({
      enabled: (await feeds.findOne({ _id: request.actor!.id }))?.reminders ?? true,
    }),
  );
  app.put(
    '/api/me/event-reminders',
    route('signed-in', 'Turn my event reminders on or off (reminders already scheduled follow at once)', {
      body: RemindersSchema,
      response: { 200: RemindersSchema },
    }),
    async (request) => {
      const actor = request.actor!;
      await services.handle(
        calendarFeedDecider,
        streamName('calendar', actor.id),
        {
          type: 'SetEventReminders',
          data: { memberId: actor.id, enabled: request.body.enabled },
          metadata: { now: services.now(), actor },
        },
        { actorId: actor.id },
      );
      return { enabled: (await feeds.findOne({ _id: actor.id }))?.reminders ?? true };
    },
  );

  app.get(
    '/api/calendar/:file',
    route(
      'public',
      'A member’s private calendar feed (`{token}.ics`): the events they attend, organise or wait for, from 90 days ago onward; a later date of a series they answered alone is an event of its own (no rule, cancelled when it was)',
      { params: FeedFileParams, response: { 200: { description: 'An iCalendar feed', contentType: 'text/calendar' }, 404: ErrorSchema } },
    ),
    async (request, reply) => {
      const token = /^([\w-]{43})\.ics$/u.exec(request.params.file)?.[1];
      const feed = token ? await feeds.findOne({ tokenHash: hashToken(token) }) : null;
      const member = feed ? await members.findOne({ _id: feed._id }) : null;
      if (!feed || !member || member.suspended)
        throw fail.notFound('This calendar link is not valid. Copy the current one from the Calendar page.');
      const actor: Actor = { id: member._id, role: member.role };
      const since = new Date(services.now().getTime() - CALENDAR_FEED_PAST_DAYS * 24 * 3600 * 1000).toISOString();
      const mine = (await links.find({ memberId: actor.id })).filter(
        (link) => link.organizing || link.rsvp === 'attending' || link.rsvp === 'waitlisted',
      );
      // A whole event (a series with its rule); a later date of a series the member answered alone, as that date only.
      const whole = new Set(mine.flatMap((link) => (link.occurrence ? [] : [link.eventId])));
      const dates = mine.filter((link) => link.occurrence && !whole.has(link.eventId));
      const events = await calendar.find(
        {
          $and: [
            { _id: { $in: [...whole, ...dates.map((link) => link.eventId)] } },
            visibility(actor),
            { status: { $ne: 'rejected' } },
            { $or: [{ startDate: { $gte: since } }, { recurs: true, reach: { $gte: since } }] },
          ],
        },
        { sort: { startDate: 1, _id: 1 }, limit: CALENDAR_FEED_MAX_EVENTS },
      );
      const zone = await services.siteTimeZone();
      // Private: a shared cache must not keep it, and search engines must not list it.
      reply.header('Cache-Control', 'private, no-store').header('X-Robots-Tag', 'noindex');
      return reply.type('text/calendar; charset=utf-8').send(
        calendarFile(
          [
            ...events.filter((event) => whole.has(event._id)).map((event) => icsEvent(event, services.config.publicUrl, zone)),
            ...dates.flatMap((link) => {
              const event = events.find((one) => one._id === link.eventId);
              const date = event && hasOccurrence(event, zone, link.occurrence!) && atOccurrence(event, link.occurrence!);
              return date && date.startDate >= since ? [occurrenceIcsEvent(date, link.occurrence!, services.config.publicUrl, zone)] : [];
            }),
          ],
          host,
          services.now(),
          'Broadcast History Community: my events',
        ),
      );
    },
  );

  app.get(
    '/api/user/events',
    route(
      'signed-in',
      'My events, by start: those I organise or answered, with my RSVP; a later date of a series I answered alone is listed at that date (`occurrenceStart`)',
      { querystring: MyEventsQuery, response: { 200: pageSchema(CalendarEventSchema) } },
    ),
    async (request) => {
      const actor = request.actor!;
      // A member's links are few enough to read whole (one per event and per later date of a series they answered);
      // each is shown at its date, a series' at its first, and paged by start in memory.
      const mine = await links.find({ memberId: actor.id });
      const events = new Map(
        (await calendar.find({ $and: [{ _id: { $in: [...new Set(mine.map((link) => link.eventId))] } }, visibility(actor)] })).map(
          (event) => [event._id, event],
        ),
      );
      const zone = await services.siteTimeZone();
      const dates = mine
        .flatMap((link) => {
          const event = events.get(link.eventId);
          // A date the series no longer has (its start or rule edited since) is not listed.
          if (!event || (link.occurrence && !hasOccurrence(event, zone, link.occurrence))) return [];
          const shown = atOccurrence(event, link.occurrence ?? new Date(event.startDate).toISOString());
          return [{ _id: link._id, startDate: shown.startDate, shown, status: link.rsvp }];
        })
        .sort((a, b) => a.startDate.localeCompare(b.startDate) || (a._id < b._id ? -1 : 1));
      return mapPage(pageOfSorted(dates, SORTS.start, request.query), (date) => eventDto(date.shown, actor, { status: date.status }));
    },
  );

  app.put(
    '/api/admin/events/:id/approve',
    route(
      STAFF,
      'Approve an event: it reaches the calendar. On an approved event, approves its organiser’s edit (`pendingRevision`): attendees are told of a new time or place',
      onEvent({ 200: CalendarEventSchema, 409: ErrorSchema, 422: ErrorSchema }),
    ),
    async (request) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      return detailsDto(await command(id, request.actor, { type: 'ApproveEvent', data: none }), request.actor);
    },
  );

  app.put(
    '/api/admin/events/:id/reject',
    route(
      STAFF,
      'Reject an event waiting for approval, with a reason its organizer sees: it leaves the listings and takes no RSVPs. On an approved event, rejects its organiser’s edit (`pendingRevision`) and keeps the event; without one, 409 `USE_CANCEL` (cancel it instead)',
      { ...onEvent({ 200: CalendarEventSchema, 409: UseCancelSchema }), body: ReasonSchema },
    ),
    async (request, reply) => {
      const id = eventId(request.params.id);
      await visibleEvent(id, request.actor);
      const reason = request.body?.reason;
      try {
        return detailsDto(await command(id, request.actor, { type: 'RejectEvent', data: reason ? { reason } : {} }), request.actor);
      } catch (error) {
        if (error instanceof DomainError && error.message === USE_CANCEL_MESSAGE)
          return reply.status(409).send({ error: USE_CANCEL, message: USE_CANCEL_MESSAGE });
        throw error;
      }
    },
  );

  app.put(
    '/api/admin/events/:id/feature',
    route(STAFF, 'Feature or unfeature an event: toggles, or sets `featured` when given', { ...changesEvent(), body: FeatureBody }),
    async (request) => {
      const id = eventId(request.params.id);
      const current = await visibleEvent(id, request.actor);
      const featured = request.body?.featured ?? !current.isFeatured;
      return detailsDto(
        await command(id, request.actor, { type: featured ? 'FeatureEvent' : 'UnfeatureEvent', data: none }),
        request.actor,
      );
    },
  );

  app.get(
    '/api/admin/events/pending',
    route(
      STAFF,
      'The moderation queue, oldest first: events waiting for approval and organisers’ edits of approved ones (`pendingRevision`)',
      eventList(),
    ),
    (request) => list(request.query, request.actor, { $or: [{ status: 'pending' }, { pendingRevision: true }] }, OLDEST_FIRST),
  );
  app.get('/api/admin/events/featured', route(STAFF, 'The featured events', eventList()), (request) =>
    list(request.query, request.actor, { isFeatured: true }),
  );
  app.get(
    '/api/admin/events/stats',
    route(STAFF, 'Management’s counts: total, pending, approved, featured, public, private', { response: { 200: EventStatsSchema } }),
    () => readEventStats(services.store),
  );
}
