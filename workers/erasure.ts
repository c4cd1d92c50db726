/**
 * What erasing a member does to the mail runner's own read models (docs/domain/members.md#erasure), as each of the
 * API's projections does to its own: their address and name go (mail queued for them is then dropped when its turn
 * comes) and they leave the events' lists; what they wrote leaves the digests and the calendar when they chose that it
 * goes. Applied last.
 */
import type { Projection } from '../platform/projections/runner';
import { applyToDocument } from '../platform/projections/documents';
import { typedEvent } from '../platform/projections/typed-event';
import { mailRecipients } from './subscriptions/recipients';
import { mailItems } from './subscriptions/items';
import { mailCalendar, mailPeople } from './attendees/attendee-mail';

export const mailErasureProjection: Projection = {
  name: 'mail-erasure',
  version: 1,
  // Owns nothing: it changes the documents of the projections that copied the member's data.
  collections: [],
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'member' || typed.event.type !== 'MemberErased') return;
    const memberId = typed.id;
    const at = recorded.position;
    await applyToDocument(mailPeople(store), memberId, at, () => null);
    for (const recipient of await mailRecipients(store).find({ memberId }))
      await applyToDocument(mailRecipients(store), recipient._id, at, () => null);
    const calendar = mailCalendar(store);
    for (const event of await calendar.find({ $or: [{ attending: memberId }, { waiting: memberId }] })) {
      await applyToDocument(
        calendar,
        event._id,
        at,
        (current) =>
          current && {
            ...current,
            attending: current.attending.filter((id) => id !== memberId),
            waiting: current.waiting.filter((id) => id !== memberId),
          },
      );
    }
    // Messages they wrote to an event's people and not yet mailed go with them.
    for (const event of await calendar.find({ 'messages.by': memberId })) {
      await applyToDocument(
        calendar,
        event._id,
        at,
        (current) => current && { ...current, messages: (current.messages ?? []).filter((message) => message.by !== memberId) },
      );
    }
    if (typed.event.data.content !== 'removed') return;
    for (const event of await calendar.find({ organizerId: memberId })) await applyToDocument(calendar, event._id, at, () => null);
    for (const item of await mailItems(store).find({ authorId: memberId })) {
      await applyToDocument(
        mailItems(store),
        item._id,
        at,
        (current) => current && { ...current, title: '', text: '', deleted: true, visible: false },
      );
    }
  },
};
