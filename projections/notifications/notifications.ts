/**
 * Notifications (docs/domain/notifications.md): `notifications`, one document per member told of one thing, derived
 * from the log: a comment on my post or blog post, a reply to my comment, my post or event approved or rejected, an
 * event I answered changed or cancelled, a place freed for me on a waiting list, a mention of me in a comment or in a
 * post once it is in the feed. Nobody is told of their own act, nor twice of one.
 * Marks of "read" come from the member's inbox stream. Applied after the feed, blog, events and comments projections,
 * whose documents name the people concerned: none of what it reads there changes with the event being applied.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { RecordedEvent } from '../../platform/event-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import type { NotificationKind } from '../../shared/notifications/schemas';
import { ROOMS } from '../../shared/socket-messages';
import { feedPosts } from '../feed/feed';
import { blogPosts } from '../blog/blog';
import { eventDetails } from '../events/events';
import { commentsCollection } from '../comments/comments';

export const NOTIFICATIONS = 'notifications';

export type NotificationDocument = Positioned & {
  _id: string;
  memberId: string;
  kind: NotificationKind;
  text: string;
  link: string;
  createdAt: string;
  read: boolean;
  /** Position of the event it came of: "mark all read" marks those before the mark. */
  cause: number;
};

export const notificationsCollection = (store: DocumentStore) => store.collection<NotificationDocument>(NOTIFICATIONS);
export const unreadCount = (store: DocumentStore, memberId: string) => notificationsCollection(store).countDocuments({ memberId, read: false });

const quote = (text: string, length = 60) => `“${text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text}”`;

type Told = { memberId: string; kind: NotificationKind; text: string; link: string };

/** What of an event's stream anyone is told of; RSVPs, the most common, are not, and cost no read. */
const TOLD_OF_EVENTS = new Set(['EventApproved', 'EventRejected', 'EventEdited', 'EventCancelled', 'PromotedFromWaitlist']);

/** One notification per member for one event: the first reason given (a reply to them outranks a mention of them). */
const onceEach = (told: Told[]) => told.filter((one, index) => told.findIndex((other) => other.memberId === one.memberId) === index);

/** Who is told what of one event of the log. */
async function notificationsOf(recorded: RecordedEvent, store: DocumentStore): Promise<Told[]> {
  const typed = typedEvent(recorded);
  if (!typed) return [];
  if (typed.stream === 'comment' && typed.event.type === 'CommentWritten') {
    const { id, targetType, targetId, parentId, authorId } = typed.event.data;
    const comment = await commentsCollection(store).findOne({ _id: id });
    const name = comment?.author.name ?? 'A member';
    const told: Told[] = [];
    const post = targetType === 'post' ? await feedPosts(store).findOne({ _id: targetId }) : null;
    const blog = targetType === 'blog' ? await blogPosts(store).findOne({ _id: targetId }) : null;
    const link = targetType === 'post' ? `/#post-${targetId}` : `/blog/${targetId}#comment-${id}`;
    if (post) told.push({ memberId: post.authorId, kind: 'comment', text: `${name} commented on your post ${quote(post.content)}`, link });
    if (blog) told.push({ memberId: blog.authorId, kind: 'comment', text: `${name} commented on your blog post ${quote(blog.title)}`, link });
    const parent = parentId ? await commentsCollection(store).findOne({ _id: parentId }) : null;
    if (parent) told.push({ memberId: parent.authorId, kind: 'reply', text: `${name} replied to your comment ${quote(parent.content || 'that was removed')}`, link });
    for (const memberId of typed.event.data.mentions ?? []) told.push({ memberId, kind: 'mention', text: `${name} mentioned you in a comment`, link });
    return onceEach(told).filter((one) => one.memberId !== authorId);
  }
  const postEvent = typed.stream === 'post' ? typed.event : null;
  if (postEvent && (postEvent.type === 'PostApproved' || (postEvent.type === 'PostSubmitted' && postEvent.data.approved))) {
    // A mention reaches its member once the post is in the feed: at once for staff posts, else at approval.
    const post = await feedPosts(store).findOne({ _id: typed.id });
    if (!post) return [];
    const mentioned: Told[] = (post.mentions ?? []).map((memberId) => ({ memberId, kind: 'mention', text: `${post.author.name} mentioned you in a post ${quote(post.content)}`, link: `/#post-${typed.id}` }));
    if (postEvent.type === 'PostSubmitted') return mentioned;
    const approved: Told[] = post.authorId === postEvent.data.by ? [] : [{ memberId: post.authorId, kind: 'post_approved', text: `Your post ${quote(post.content)} was approved and is in the feed`, link: `/#post-${typed.id}` }];
    return onceEach([...approved, ...mentioned]).filter((one) => one.memberId !== post.authorId || one.kind !== 'mention');
  }
  if (typed.stream === 'post' && typed.event.type === 'PostRejected') {
    const post = await feedPosts(store).findOne({ _id: typed.id });
    if (!post || post.authorId === typed.event.data.by) return [];
    const reason = typed.event.data.reason;
    return [{ memberId: post.authorId, kind: 'post_rejected', text: `Your post ${quote(post.content)} was not approved${reason ? `: ${reason}` : ''}`, link: `/#post-${typed.id}` }];
  }
  if (typed.stream === 'inbox' && typed.event.type === 'EventReminderSent') {
    const { memberId, eventId, title } = typed.event.data;
    return [{ memberId, kind: 'event_reminder', text: `Tomorrow: ${quote(title, 80)}`, link: `/events/${eventId}` }];
  }
  if (typed.stream === 'event' && TOLD_OF_EVENTS.has(typed.event.type)) {
    const { event } = typed;
    const details = await eventDetails(store).findOne({ _id: typed.id });
    if (!details) return [];
    const link = `/events/${typed.id}`;
    const title = quote(details.title, 80);
    switch (event.type) {
      case 'EventApproved':
        return details.organizerId === event.data.by ? [] : [{ memberId: details.organizerId, kind: 'event_approved', text: `Your event ${title} was approved and is on the calendar`, link }];
      case 'EventRejected':
        return details.organizerId === event.data.by ? [] : [{ memberId: details.organizerId, kind: 'event_rejected', text: `Your event ${title} was not approved`, link }];
      case 'EventEdited':
      case 'EventCancelled': {
        const answered = Object.entries(details.rsvps).filter(([, status]) => status !== 'not_attending').map(([memberId]) => memberId);
        const people = event.type === 'EventCancelled' ? [...answered, ...(details.waiting ?? [])] : answered;
        const [kind, text] = event.type === 'EventCancelled' ? (['event_cancelled', `${title} was cancelled`] as const) : (['event_changed', `${title} changed: see the new details`] as const);
        return people.filter((memberId) => memberId !== event.data.by).map((memberId) => ({ memberId, kind, text, link }));
      }
      case 'PromotedFromWaitlist':
        return [{ memberId: event.data.memberId, kind: 'waitlist_promoted', text: `A place freed up at ${title}: you are attending`, link }];
      default:
        return [];
    }
  }
  return [];
}

async function tellUnread(store: DocumentStore, memberIds: Iterable<string>, notify: ProjectionContext['notify']) {
  for (const memberId of new Set(memberIds)) notify({ message: 'notifications:changed', rooms: [ROOMS.member(memberId)], payload: { unread: await unreadCount(store, memberId) } });
}

export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 1,
  collections: [NOTIFICATIONS],
  async setup(store) {
    await notificationsCollection(store).createIndex({ memberId: 1, createdAt: -1, _id: -1 });
    await notificationsCollection(store).createIndex({ memberId: 1, read: 1 });
  },
  async apply(recorded, { store, notify }) {
    const notifications = notificationsCollection(store);
    const typed = typedEvent(recorded);
    if (typed?.stream === 'inbox' && typed.event.type === 'NotificationsRead') {
      const { memberId, ids } = typed.event.data;
      const marked = await notifications.find(ids ? { memberId, _id: { $in: ids }, read: false } : { memberId, read: false, cause: { $lt: recorded.position } });
      for (const notification of marked) await applyToDocument(notifications, notification._id, recorded.position, (current) => current && { ...current, read: true });
      if (marked.length > 0) await tellUnread(store, [memberId], notify);
      return;
    }
    const told = await notificationsOf(recorded, store);
    const createdAt = recorded.createdAt.toISOString();
    for (const one of told)
      await applyToDocument(notifications, `${recorded.id}:${one.memberId}`, recorded.position, () => ({ ...one, createdAt, read: false, cause: recorded.position }));
    await tellUnread(store, told.map((one) => one.memberId), notify);
  },
};
