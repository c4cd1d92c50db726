/**
 * What erasing a member does to the read models (docs/domain/members.md#erasure). Erasure crosses every read model
 * that holds something of a member, so it is written in one place, as the list of those places: a new read model
 * that copies a member's name, address or words belongs here too (tests/int/members/erasure.int.spec.ts searches
 * every collection for them).
 *
 * Their account, sign-in, activity, subscriptions, RSVPs, bookmarks, notifications and calendar feed go. What they
 * wrote stays as by "Former member", or goes when they chose so. The log itself is taken care of by the destroyed
 * keys: a replay gives placeholders for the same data, and meets this event again after them.
 *
 * Applied last of all projections, so every other one has applied the event before.
 */
import type { Collection, Document, Filter } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { displayName } from '../../shared/members/display';
import { FORMER_MEMBER } from '../../shared/personal-data';
import { escapeRegex } from '../../shared/text';
import { ROOMS } from '../../shared/socket-messages';
import { credentialsCollection, membersCollection } from './members';
import { MEMBER_POST_COUNTS } from './post-counts';
import { memberActivity } from './activity';
import { feedPosts } from '../feed/feed';
import { commentsCollection } from '../comments/comments';
import { blogPosts } from '../blog/blog';
import { calendarEvents, eventDetails } from '../events/events';
import { memberEvents } from '../events/member-events';
import { calendarFeeds } from '../events/calendar-feeds';
import { subscriptionsCollection } from '../subscriptions/subscriptions';
import { notificationsCollection } from '../notifications/notifications';
import { reportsCollection } from '../reports/reports';
import { bookmarksCollection } from '../bookmarks/bookmarks';

const FORMER_MEMBER_NAME = displayName(FORMER_MEMBER);
const formerOrganizer = { firstName: FORMER_MEMBER.firstName, lastName: FORMER_MEMBER.lastName, email: '', profileImageUrl: null };

/** Applies `change` to every document the filter finds, each guarded on its position like any projection write. */
async function each<T extends Document & Positioned>(collection: Collection<T>, filter: Filter, at: number, change: (document: T) => Omit<T, '_id' | '_position'> | null) {
  for (const document of await collection.find(filter)) await applyToDocument(collection, document._id, at, (current) => current && change(current));
}

async function erase(memberId: string, contentRemoved: boolean, at: number, { store, notify }: ProjectionContext) {
  const member = await membersCollection(store).findOne({ _id: memberId });
  const name = member ? displayName(member) : null;

  // What they wrote: kept as by "Former member", or gone.
  const byThem = { authorId: memberId };
  if (contentRemoved) {
    await each(feedPosts(store), byThem, at, () => null);
    await each(commentsCollection(store), byThem, at, (comment) => ({ ...comment, author: { ...comment.author, name: FORMER_MEMBER_NAME, avatar: null }, content: '', removed: true, removedBy: memberId }));
    await each(blogPosts(store), byThem, at, () => null);
    for (const event of await eventDetails(store).find({ organizerId: memberId }, { fields: ['_id'] })) await each(memberEvents(store), { eventId: event._id }, at, () => null);
    await each(eventDetails(store), { organizerId: memberId }, at, () => null);
    await each(calendarEvents(store), { organizerId: memberId }, at, () => null);
    await each(reportsCollection(store), { 'author.id': memberId }, at, () => null);
  } else {
    await each(feedPosts(store), byThem, at, (post) => ({ ...post, author: { ...post.author, name: FORMER_MEMBER_NAME, avatar: null }, search: [post.content, FORMER_MEMBER_NAME, ...post.tags].join('\n').toLowerCase() }));
    await each(commentsCollection(store), byThem, at, (comment) => ({ ...comment, author: { ...comment.author, name: FORMER_MEMBER_NAME, avatar: null } }));
    await each(blogPosts(store), byThem, at, (post) => ({ ...post, author: { ...post.author, ...formerOrganizer, name: FORMER_MEMBER_NAME } }));
    await each(eventDetails(store), { organizerId: memberId }, at, (event) => ({ ...event, organizer: { ...event.organizer, ...formerOrganizer } }));
    await each(calendarEvents(store), { organizerId: memberId }, at, (event) => ({ ...event, organizer: { ...event.organizer, ...formerOrganizer } }));
    await each(reportsCollection(store), { 'author.id': memberId }, at, (report) => ({ ...report, author: { ...report.author, name: FORMER_MEMBER_NAME } }));
  }
  // Others' notifications name them as who commented, replied or mentioned.
  if (name && name !== FORMER_MEMBER_NAME) {
    const named = new RegExp(escapeRegex(name), 'gu');
    await each(notificationsCollection(store), { memberId: { $ne: memberId }, text: { $regex: escapeRegex(name) } }, at, (notification) => ({ ...notification, text: notification.text.replace(named, FORMER_MEMBER_NAME) }));
  }

  // Their account and everything kept for them alone.
  await each(membersCollection(store), { _id: memberId }, at, () => null);
  await each(credentialsCollection(store), { _id: memberId }, at, () => null);
  await store.collection(MEMBER_POST_COUNTS).deleteMany({ _id: memberId });
  await memberActivity(store).deleteMany({ memberId });
  await each(subscriptionsCollection(store), { memberId }, at, () => null);
  await each(memberEvents(store), { memberId }, at, () => null);
  await each(calendarFeeds(store), { _id: memberId }, at, () => null);
  await each(notificationsCollection(store), { memberId }, at, () => null);
  await each(bookmarksCollection(store), { memberId }, at, () => null);

  notify({ message: 'stats:changed', rooms: [ROOMS.members], payload: {} });
}

export const erasureProjection: Projection = {
  name: 'erasure',
  version: 1,
  // Owns nothing: it changes the documents of the projections that copied the member's data.
  collections: [],
  async apply(recorded, context) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'member' || typed.event.type !== 'MemberErased') return;
    await erase(typed.id, typed.event.data.content === 'removed', recorded.position, context);
  },
};
