/**
 * `member_events` (MemberEvents): which events each member organises or has answered or waits for, with their RSVP,
 * for "my events" and their private calendar feed. One small link document per member and event, and one per later
 * occurrence of a series they answered (`occurrence`: its start as the series has it); the events themselves are read
 * from the calendar, so an RSVP to a busy event never rewrites every attendee's copy. An erased member's links go, and
 * with their content, every link to the events they organised.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { MyRsvpStatus } from '../../shared/events/constants';
import { occurrenceOfEvent } from '../../shared/events/event-stream';
import { occurrenceField } from './series';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const MEMBER_EVENTS = 'member_events';

export type MemberEventDocument = Positioned & {
  _id: string;
  memberId: string;
  eventId: string;
  organizing: boolean;
  rsvp: MyRsvpStatus | null;
  /** When the member gave that answer (or joined the line, or was given a place): the attendee list's `at`. Absent on links of version 1. */
  at?: string;
  /** A later occurrence of a series (its start as the series has it, ISO): the answer is to that date alone. Absent: the event, or its first date. */
  occurrence?: string;
};

/** The links to whole events (or their first dates), not to a later date of a series. */
export const EVENT_LINKS = { occurrence: { $exists: false } } as const;

export const memberEvents = (store: DocumentStore) => store.collection<MemberEventDocument>(MEMBER_EVENTS);

/** Forgets an erased member's links, and with their content every link to the events they organised (they are gone). */
async function forget(store: DocumentStore, memberId: string, contentRemoved: boolean, at: number) {
  const links = memberEvents(store);
  const own = await links.find({ memberId });
  const organised = contentRemoved ? own.filter((link) => link.organizing).map((link) => link.eventId) : [];
  // Others' links first: a replay after a crash in between finds the organiser's own links, and so the events, again.
  for (const link of organised.length > 0 ? await links.find({ eventId: { $in: organised }, memberId: { $ne: memberId } }) : [])
    await applyToDocument(links, link._id, at, () => null);
  for (const link of own) await applyToDocument(links, link._id, at, () => null);
}

export const memberEventsProjection: Projection = {
  name: 'member-events',
  // 2: `at` on each link, for the organiser's attendee list. 3: a link for each later occurrence answered.
  version: 3,
  collections: [MEMBER_EVENTS],
  async setup(store) {
    await memberEvents(store).createIndex({ memberId: 1 });
    await memberEvents(store).createIndex({ eventId: 1 });
  },
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member' && typed.event.type === 'MemberErased')
      return forget(store, typed.id, typed.event.data.content === 'removed', recorded.position);
    if (typed?.stream !== 'event') return;
    const { id: eventId, event } = typed;
    // A later occurrence's answers are a link of their own, beside the event's (or its first occurrence's).
    const occurrence = occurrenceOfEvent(event);
    const links = memberEvents(store);
    const link = (
      memberId: string,
      change: (current: MemberEventDocument | null) => Omit<MemberEventDocument, '_id' | '_position' | 'eventId' | 'occurrence'> | null,
    ) =>
      applyToDocument(
        links,
        occurrence ? `${eventId}:${memberId}:${occurrenceField(occurrence)}` : `${eventId}:${memberId}`,
        recorded.position,
        (current) => {
          const changed = change(current);
          return changed && { ...changed, eventId, ...(occurrence ? { occurrence } : {}) };
        },
      );

    switch (event.type) {
      case 'EventScheduled':
        await link(event.data.organizerId, (current) => ({
          memberId: event.data.organizerId,
          organizing: true,
          rsvp: current?.rsvp ?? null,
          ...(current?.at ? { at: current.at } : {}),
        }));
        return;
      case 'RsvpChanged':
        await link(event.data.memberId, (current) => ({
          memberId: event.data.memberId,
          organizing: current?.organizing ?? false,
          rsvp: event.data.status,
          at: event.data.at,
        }));
        return;
      case 'JoinedWaitlist':
        await link(event.data.memberId, (current) => ({
          memberId: event.data.memberId,
          organizing: current?.organizing ?? false,
          rsvp: 'waitlisted',
          at: event.data.at,
        }));
        return;
      case 'PromotedFromWaitlist':
        await link(event.data.memberId, (current) => ({
          memberId: event.data.memberId,
          organizing: current?.organizing ?? false,
          rsvp: 'attending',
          at: event.data.at,
        }));
        return;
      case 'RsvpRemoved':
      case 'LeftWaitlist':
        await link(event.data.memberId, (current) =>
          current?.organizing ? { memberId: current.memberId, organizing: true, rsvp: null } : null,
        );
        return;
      case 'EventDeleted':
        for (const { _id } of await links.find({ eventId })) await applyToDocument(links, _id, recorded.position, () => null);
        return;
    }
  },
};
