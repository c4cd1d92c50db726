/**
 * What an event's organiser (and staff) run beside the event itself (docs/domain/events.md#organisers): who is coming,
 * as a list and as a CSV file; a message to the attendees, mailed by the mail runner through the outbox; and a private
 * event's invite link, which lets a signed-in member who opens it see the event and RSVP.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { calendarEventDecider, isModerator, messageRecipients, seatsOf, type CalendarEventCommand } from '../../shared/events/event-stream';
import { MESSAGES_PER_DAY, type MyRsvpStatus } from '../../shared/events/constants';
import {
  AttendeeMessageSchema,
  AttendeesSchema,
  CalendarEventSchema,
  InvitationSchema,
  InviteLinkSchema,
  MessageAcceptedSchema,
  OccurrenceQuerySchema,
  type Attendees,
  type MessageAccepted,
} from '../../shared/events/schemas';
import { icsFileName } from '../../shared/events/ics';
import { text } from '../../shared/text-schema';
import { FORMER_MEMBER } from '../../shared/personal-data';
import {
  atOccurrence,
  canSee,
  detailsDto,
  eventDetails,
  memberEvents,
  EVENT_LINKS,
  occurrenceAnswers,
  occurrenceKey,
  type EventDetailsDocument,
} from '../../projections/events';
import { membersCollection } from '../../projections/members';
import { ErrorSchema, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { Intent } from '../../platform/command-handler';
import { PARTICIPANTS } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { knownId } from '../http/ids';

const IdParams = v.object({ id: text() });
const eventId = (id: string) => knownId(id, 'Event not found');
const DAY_MS = 24 * 3_600_000;

/** The list's order: those coming first, then the line (first in line first), then maybe, then those not coming. */
const STATUS_ORDER: Record<MyRsvpStatus, number> = { attending: 0, waitlisted: 1, maybe: 2, not_attending: 3 };
const STATUS_LABELS: Record<MyRsvpStatus, string> = {
  attending: 'Attending',
  waitlisted: 'Waiting list',
  maybe: 'Maybe',
  not_attending: 'Not attending',
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A cell a spreadsheet would read as a
 * formula (starting with = + - @, or a tab or carriage return that hides one) is prefixed with an apostrophe, so a
 * member's name never runs in the organiser's spreadsheet (OWASP "CSV injection").
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/u.test(value) ? `'${value}` : value;
  return /[",\r\n]/u.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
export const csvRow = (cells: string[]) => cells.map(csvCell).join(',');

/**
 * The invite token of a private event: an HMAC of its id and the link's generation, so it is stored nowhere and
 * unguessable without the secret; a reset (a new generation) makes every earlier link stop working.
 */
export function inviteToken(secret: string, eventId: string, generation = 0): string {
  const subject = generation === 0 ? `event-invite:${eventId}` : `event-invite:${eventId}:${generation}`;
  return createHmac('sha256', secret).update(subject).digest('base64url');
}
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function eventOrganiserRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now' | 'siteTimeZone'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const details = eventDetails(services.store);
  const links = memberEvents(services.store);
  const members = membersCollection(services.store);
  const route = routeOptions(['events']);
  const secret = services.config.subscriptionLinkSecret;

  async function visibleEvent(id: string, actor: Actor | null) {
    const event = await details.findOne({ _id: id });
    if (!event || !canSee(event, actor)) throw fail.notFound('Event not found');
    return event;
  }
  /** The event, for its organiser and staff only: 404 for one the caller may not see, 403 for one they may see but not run. */
  async function managedEvent(id: string, actor: Actor, refusal: string) {
    const event = await visibleEvent(eventId(id), actor);
    if (event.organizerId !== actor.id && !isModerator(actor)) throw fail.forbidden(refusal);
    return event;
  }
  const inviteLink = (event: EventDetailsDocument) => ({
    url: `${services.config.publicUrl}/events/${event._id}?invite=${inviteToken(secret, event._id, event.inviteGeneration ?? 0)}`,
  });
  const decide = (id: string, actor: Actor, intent: Intent<CalendarEventCommand>) =>
    services.handle(
      calendarEventDecider,
      streamName('event', id),
      { ...intent, metadata: { now: services.now(), actor } },
      { actorId: actor.id },
    );

  /** Everyone who answered the event, in the list's order, with their names as the members read model has them now. */
  async function attendeesOf(event: EventDetailsDocument, occurrence?: string): Promise<Attendees['items']> {
    // A later occurrence of a series: its own answers; else the links to the event (or its first occurrence).
    const later = occurrence ? occurrenceKey(event, await services.siteTimeZone(), occurrence) : undefined;
    const answered = later
      ? occurrenceAnswers(event, later).map((answer) => ({ memberId: answer.memberId, rsvp: answer.status, at: answer.at }))
      : (await links.find({ eventId: event._id, rsvp: { $ne: null }, ...EVENT_LINKS })).filter((link) => link.rsvp !== null);
    if (later) event = atOccurrence(event, later);
    const names = new Map(
      (await members.find({ _id: { $in: answered.map((link) => link.memberId) } })).map((member) => [
        member._id,
        `${member.firstName} ${member.lastName}`.trim(),
      ]),
    );
    const waiting = event.waiting ?? [];
    const items = answered.map((link) => {
      const status = link.rsvp!;
      const place = waiting.indexOf(link.memberId);
      return {
        member: { id: link.memberId, name: names.get(link.memberId) || `${FORMER_MEMBER.firstName} ${FORMER_MEMBER.lastName}` },
        status,
        ...(status === 'waitlisted' && place >= 0 ? { position: place + 1 } : {}),
        at: link.at ?? event.createdAt,
      };
    });
    return items.sort(
      (a, b) =>
        STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
        (a.position ?? 0) - (b.position ?? 0) ||
        a.at.localeCompare(b.at) ||
        a.member.name.localeCompare(b.member.name),
    );
  }

  const refusal = 'Only the organizer and staff can see who is coming';

  app.get(
    '/api/events/:id/attendees',
    route(
      PARTICIPANTS,
      'Who answered the event (its organizer and staff): attending, the waiting list with places, maybe, not attending; of one `occurrence` of a recurring event',
      { params: IdParams, querystring: OccurrenceQuerySchema, response: { 200: AttendeesSchema, 403: ErrorSchema, 404: ErrorSchema } },
    ),
    async (request): Promise<Attendees> => ({
      items: await attendeesOf(await managedEvent(request.params.id, request.actor!, refusal), request.query.occurrence),
    }),
  );

  app.get(
    '/api/events/:id/attendees.csv',
    route(
      PARTICIPANTS,
      'Who answered the event (or one `occurrence` of a recurring one), as a CSV file with a header row (its organizer and staff)',
      {
        params: IdParams,
        querystring: OccurrenceQuerySchema,
        response: {
          200: { description: 'Name, status, place in line and date of each answer', contentType: 'text/csv' },
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    ),
    async (request, reply) => {
      const event = await managedEvent(request.params.id, request.actor!, refusal);
      const rows = (await attendeesOf(event, request.query.occurrence)).map((item) =>
        csvRow([item.member.name, STATUS_LABELS[item.status], item.position ? String(item.position) : '', item.at]),
      );
      const name = icsFileName(event.title, event.startDate).replace(/\.ics$/u, '_attendees.csv');
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('Cache-Control', 'private, no-store')
        .send([csvRow(['Name', 'Status', 'Position', 'Answered at']), ...rows].join('\r\n') + '\r\n');
    },
  );

  app.post(
    '/api/events/:id/message',
    route(
      PARTICIPANTS,
      `Message the attendees (its organizer and staff): one mail to each, through the outbox; for a recurring event, those of one \`occurrence\` (none: its first date); at most ${MESSAGES_PER_DAY} per event in any 24 hours (then 429)`,
      {
        params: IdParams,
        body: AttendeeMessageSchema,
        response: { 202: MessageAcceptedSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema, 429: ErrorSchema },
      },
    ),
    async (request, reply) => {
      const actor = request.actor!;
      const id = eventId(request.params.id);
      const event = await visibleEvent(id, actor);
      const messageId = randomUUID();
      // One date of a series: its own people (the first date's are the event's).
      const occurrence = occurrenceKey(event, await services.siteTimeZone(), request.body.occurrence);
      const { occurrence: _named, ...message } = request.body;
      const { state } = await decide(id, actor, {
        type: 'MessageAttendees',
        data: { messageId, ...message, ...(occurrence ? { occurrence } : {}) },
      });
      const since = services.now().getTime() - DAY_MS;
      const sentToday = state.messagedAt.filter((at) => Date.parse(at) > since).length;
      const accepted: MessageAccepted = {
        id: messageId,
        recipients: messageRecipients(seatsOf(state, occurrence), request.body.to).length,
        remainingToday: Math.max(0, MESSAGES_PER_DAY - sentToday),
      };
      return reply.status(202).send(accepted);
    },
  );

  app.get(
    '/api/events/:id/invite-link',
    route(
      PARTICIPANTS,
      'A private event’s invite link (its organizer and staff): a signed-in member who opens it may see the event and RSVP',
      { params: IdParams, response: { 200: InviteLinkSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema } },
    ),
    async (request) => {
      const event = await managedEvent(request.params.id, request.actor!, 'Only the organizer and staff can share the invite link');
      if (event.isPublic) throw fail.rule('This event is public: share its page, no invitation is needed');
      return inviteLink(event);
    },
  );

  app.post(
    '/api/events/:id/invite-link/reset',
    route(PARTICIPANTS, 'Make a new invite link for a private event (its organizer and staff): the old link stops letting anyone in', {
      params: IdParams,
      response: { 200: InviteLinkSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema },
    }),
    async (request) => {
      const actor = request.actor!;
      const event = await managedEvent(request.params.id, actor, 'Only the organizer and staff can reset the invite link');
      await decide(event._id, actor, { type: 'ResetInviteLink', data: {} });
      return inviteLink(await visibleEvent(event._id, actor));
    },
  );

  app.post(
    '/api/events/:id/invitation',
    route('signed-in', 'Accept a private event’s invite link (the token of `?invite=`): the member may then see the event and RSVP', {
      params: IdParams,
      body: InvitationSchema,
      response: { 200: CalendarEventSchema, 404: ErrorSchema, 409: ErrorSchema },
    }),
    async (request) => {
      const actor = request.actor!;
      const id = eventId(request.params.id);
      const event = await details.findOne({ _id: id });
      // An unknown event and a wrong token answer alike: the link tells nothing of events it does not open.
      if (!event || !sameToken(request.body.token, inviteToken(secret, id, event.inviteGeneration ?? 0)))
        throw fail.notFound('This invite link is not valid. Ask the organizer for the current one.');
      await decide(id, actor, { type: 'AcceptInvitation', data: {} });
      return detailsDto(await visibleEvent(id, actor), actor);
    },
  );
}
