/**
 * Notifications (docs/domain/notifications.md): `notifications`, one document per member told of one thing, derived
 * from the log: a comment on my post or blog post, a reply to my comment, my post or event approved or rejected, an
 * event I answered changed or cancelled, a place freed for me on a waiting list, a mention of me in a comment or in a
 * post once it is in the feed. Nobody is told of their own act, nor twice of one.
 * Marks of "read" come from the member's inbox stream. Who to tell and how to name them, this projection keeps itself
 * from the same events: `notification_subjects` (each post, blog post, comment and event: its author, how a text
 * quotes it, and for an event who answered or waits) and `notification_names` (each member's name). A notification
 * that begins with a member's name keeps their id, and is named as they are when it is read (queries.ts): a new name,
 * or an erasure, rewrites no notification.
 */
import type { Collection, DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent, type TypedEvent } from '../../platform/projections/typed-event';
import { bylineChange, type Byline } from '../../shared/members/byline';
import type { MemberEvent } from '../../shared/members/member-stream';
import type { NotificationKind } from '../../shared/notifications/schemas';
import { ROOMS } from '../../shared/socket-messages';
import { htmlToText } from '../../shared/blog/excerpt';
import { replyLink, topicLink } from '../../shared/discussions/links';

export const NOTIFICATIONS = 'notifications';
export const NOTIFICATION_SUBJECTS = 'notification_subjects';
export const NOTIFICATION_NAMES = 'notification_names';

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
  /** The member whose act it tells: the text follows their name, as it is when read (absent when it names no one). */
  actorId?: string;
};

/**
 * A post, blog post, comment or event, keyed `<stream type>:<id>`: who wrote or organises it, and how a notification
 * quotes it. A post keeps whom it mentions; an event, who answered it (attending or maybe) and who waits for a place.
 */
type SubjectDocument = Positioned & {
  _id: string;
  authorId: string;
  quoted: string;
  mentions?: string[];
  answered?: string[];
  waiting?: string[];
  heldQuote?: string;
  slug?: string;
};
/** A member's name, by their id (none once they are erased). */
type NameDocument = Positioned & { _id: string; byline: Byline };

export const notificationsCollection = (store: DocumentStore) => store.collection<NotificationDocument>(NOTIFICATIONS);
const subjects = (store: DocumentStore) => store.collection<SubjectDocument>(NOTIFICATION_SUBJECTS);
/** The subject under `key` (`<stream>:<id>`), where it is known. */
const subjectOf = (store: DocumentStore, key: string) => subjects(store).findOne({ _id: key });
export const names = (store: DocumentStore) => store.collection<NameDocument>(NOTIFICATION_NAMES);
export const unreadCount = (store: DocumentStore, memberId: string) =>
  notificationsCollection(store).countDocuments({ memberId, read: false });

/** A feed post's own page (`#comment-<id>` scrolls to a comment in it). */
const postLink = (id: string) => `/posts/${id}`;

const quote = (text: string, length = 60) => `“${text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text}”`;

/** With `actorId`, the text follows the actor's name. */
type Told = { memberId: string; kind: NotificationKind; text: string; link: string; actorId?: string };

/** One notification per member for one event: the first reason given (a reply to them outranks a mention of them). */
const onceEach = (told: Told[]) => told.filter((one, index) => told.findIndex((other) => other.memberId === one.memberId) === index);

/** A subject's document after `update`, where it exists. */
const changeSubject = (
  store: DocumentStore,
  key: string,
  at: number,
  update: (subject: SubjectDocument) => Omit<SubjectDocument, '_id' | '_position'>,
) => applyToDocument(subjects(store), key, at, (current) => current && update(current));

/** A subject's document as one event gives it whole. */
const putSubject = (store: DocumentStore, key: string, at: number, subject: Omit<SubjectDocument, '_id' | '_position'>) =>
  applyToDocument(subjects(store), key, at, () => subject);

/** Who answered and who waits after one event about one member, as the event's details keep them. */
const answerSubject = (store: DocumentStore, key: string, at: number, memberId: string, answered: boolean, waiting: boolean) =>
  changeSubject(store, key, at, (subject) => ({
    ...subject,
    answered: [...(subject.answered ?? []).filter((other) => other !== memberId), ...(answered ? [memberId] : [])],
    waiting: [...(subject.waiting ?? []).filter((other) => other !== memberId), ...(waiting ? [memberId] : [])],
  }));

/**
 * Keeps the subjects up to date with one event of their stream, before anyone is told of it (an edit's notice quotes
 * the new title). Runs for every event of the log, so it makes no closure of its own (docs/architecture.md#measured-reasons).
 */
async function keepSubject({ stream, id, event }: TypedEvent, at: number, store: DocumentStore) {
  const key = `${stream}:${id}`;
  switch (event.type) {
    case 'PostSubmitted':
      return putSubject(store, key, at, {
        authorId: event.data.authorId,
        quoted: quote(event.data.content),
        ...(event.data.mentions ? { mentions: event.data.mentions } : {}),
      });
    case 'PostEdited':
      return changeSubject(store, key, at, (subject) => ({ ...subject, quoted: quote(event.data.content) }));
    case 'PostRevisionSubmitted':
      // Told of by the text that was in the feed; once approved, quoted as edited.
      return changeSubject(store, key, at, (subject) => ({ ...subject, heldQuote: quote(event.data.content) }));
    case 'PostRevisionApproved':
      return changeSubject(store, key, at, ({ heldQuote, ...subject }) => ({ ...subject, ...(heldQuote ? { quoted: heldQuote } : {}) }));
    case 'PostRevisionRejected':
      return changeSubject(store, key, at, ({ heldQuote: _dropped, ...subject }) => subject);
    // A blog post's slug, its address (one drafted before slugs has none here: its id's address leads to it).
    case 'BlogPostDrafted':
      return putSubject(store, key, at, {
        authorId: event.data.authorId,
        quoted: quote(event.data.title),
        ...(event.data.slug ? { slug: event.data.slug } : {}),
      });
    case 'BlogPostEdited':
      return changeSubject(store, key, at, (subject) => ({
        ...subject,
        quoted: quote(event.data.title),
        ...(event.data.slug ? { slug: event.data.slug } : {}),
      }));
    case 'CommentWritten':
      return putSubject(store, key, at, {
        authorId: event.data.authorId,
        quoted: quote(event.data.content || 'that was removed'),
      });
    case 'CommentEdited':
      return changeSubject(store, key, at, (subject) => ({ ...subject, quoted: quote(event.data.content || 'that was removed') }));
    case 'CommentRemoved':
      return changeSubject(store, key, at, (subject) => ({ ...subject, quoted: quote('that was removed') }));
    case 'EventScheduled':
      return putSubject(store, key, at, {
        authorId: event.data.organizerId,
        quoted: quote(event.data.fields.title, 80),
        answered: [],
        waiting: [],
      });
    case 'EventEdited':
      return changeSubject(store, key, at, (subject) => ({ ...subject, quoted: quote(event.data.fields.title, 80) }));
    case 'RsvpChanged':
      return answerSubject(store, key, at, event.data.memberId, event.data.status !== 'not_attending', false);
    case 'PromotedFromWaitlist':
      return answerSubject(store, key, at, event.data.memberId, true, false);
    case 'JoinedWaitlist':
      return answerSubject(store, key, at, event.data.memberId, false, true);
    case 'RsvpRemoved':
    case 'LeftWaitlist':
      return answerSubject(store, key, at, event.data.memberId, false, false);
    // Discussions: a topic is quoted by its title, a reply by its words.
    case 'TopicStarted':
      return putSubject(store, key, at, { authorId: event.data.authorId, quoted: quote(event.data.title, 80) });
    case 'TopicEdited':
      return changeSubject(store, key, at, (subject) => ({ ...subject, quoted: quote(event.data.title, 80) }));
    case 'ReplyPosted':
      return putSubject(store, key, at, {
        authorId: event.data.authorId,
        quoted: quote(htmlToText(event.data.content) || 'that was deleted'),
      });
    case 'ReplyEdited':
      return changeSubject(store, key, at, (subject) => ({
        ...subject,
        quoted: quote(htmlToText(event.data.content) || 'that was deleted'),
      }));
    case 'PostDeleted':
    case 'BlogPostDeleted':
    case 'EventDeleted':
    case 'TopicRemoved':
      return applyToDocument(subjects(store), key, at, () => null);
  }
}

/** Who is told what of one event of the log. */
async function notificationsOf(typed: TypedEvent, store: DocumentStore): Promise<Told[]> {
  if (typed.stream === 'comment' && typed.event.type === 'CommentWritten') {
    const { id, targetType, targetId, parentId, authorId: actorId } = typed.event.data;
    const told: Told[] = [];
    const target = await subjectOf(store, `${targetType}:${targetId}`);
    const link = `${targetType === 'post' ? postLink(targetId) : `/blog/${target?.slug ?? targetId}`}#comment-${id}`;
    if (target)
      told.push({
        memberId: target.authorId,
        kind: 'comment',
        text: `commented on your ${targetType === 'post' ? 'post' : 'blog post'} ${target.quoted}`,
        link,
        actorId,
      });
    const parent = parentId ? await subjectOf(store, `comment:${parentId}`) : null;
    if (parent) told.push({ memberId: parent.authorId, kind: 'reply', text: `replied to your comment ${parent.quoted}`, link, actorId });
    for (const memberId of typed.event.data.mentions ?? [])
      told.push({ memberId, kind: 'mention', text: 'mentioned you in a comment', link, actorId });
    return onceEach(told).filter((one) => one.memberId !== actorId);
  }
  if (typed.stream === 'reply' && typed.event.type === 'ReplyPosted') {
    // A reply tells whom it answers, the topic's author, and whom it mentions (one notification each, at most).
    const { id, topicId, replyTo, authorId: actorId, mentions } = typed.event.data;
    const topic = await subjectOf(store, `topic:${topicId}`);
    const title = topic?.quoted ?? quote('a discussion');
    const link = replyLink(topicId, id);
    const answered = replyTo ? await subjectOf(store, `reply:${replyTo}`) : null;
    const told: Told[] = [];
    if (answered) told.push({ memberId: answered.authorId, kind: 'reply', text: `replied to you in ${title}`, link, actorId });
    if (topic) told.push({ memberId: topic.authorId, kind: 'reply', text: `replied to your topic ${title}`, link, actorId });
    for (const memberId of mentions ?? []) told.push({ memberId, kind: 'mention', text: `mentioned you in ${title}`, link, actorId });
    return onceEach(told).filter((one) => one.memberId !== actorId);
  }
  if (typed.stream === 'topic' && typed.event.type === 'TopicStarted') {
    const { id, title, authorId, mentions } = typed.event.data;
    return (mentions ?? [])
      .filter((memberId) => memberId !== authorId)
      .map((memberId) => ({
        memberId,
        kind: 'mention' as const,
        text: `mentioned you in ${quote(title, 80)}`,
        link: topicLink(id),
        actorId: authorId,
      }));
  }
  const postEvent = typed.stream === 'post' ? typed.event : null;
  if (postEvent && (postEvent.type === 'PostApproved' || (postEvent.type === 'PostSubmitted' && postEvent.data.approved))) {
    // A mention reaches its member once the post is in the feed: at once for staff posts, else at approval.
    const post = await subjectOf(store, `post:${typed.id}`);
    if (!post) return [];
    const link = postLink(typed.id);
    const mentioned: Told[] = (post.mentions ?? []).map((memberId) => ({
      memberId,
      kind: 'mention',
      text: `mentioned you in a post ${post.quoted}`,
      link,
      actorId: post.authorId,
    }));
    if (postEvent.type === 'PostSubmitted') return mentioned;
    const approved: Told[] =
      post.authorId === postEvent.data.by
        ? []
        : [{ memberId: post.authorId, kind: 'post_approved', text: `Your post ${post.quoted} was approved and is in the feed`, link }];
    return onceEach([...approved, ...mentioned]).filter((one) => one.memberId !== post.authorId || one.kind !== 'mention');
  }
  if (typed.stream === 'post' && typed.event.type === 'PostRejected') {
    const post = await subjectOf(store, `post:${typed.id}`);
    if (!post || post.authorId === typed.event.data.by) return [];
    const reason = typed.event.data.reason;
    return [
      {
        memberId: post.authorId,
        kind: 'post_rejected',
        text: `Your post ${post.quoted} was not approved${reason ? `: ${reason}` : ''}`,
        link: postLink(typed.id),
      },
    ];
  }
  if (typed.stream === 'post' && (typed.event.type === 'PostRevisionApproved' || typed.event.type === 'PostRevisionRejected')) {
    const post = await subjectOf(store, `post:${typed.id}`);
    if (!post || post.authorId === typed.event.data.by) return [];
    if (typed.event.type === 'PostRevisionApproved')
      return [
        {
          memberId: post.authorId,
          kind: 'post_edit_approved',
          text: `Your edit of your post ${post.quoted} was approved`,
          link: postLink(typed.id),
        },
      ];
    const reason = typed.event.data.reason;
    return [
      {
        memberId: post.authorId,
        kind: 'post_edit_rejected',
        text: `Your edit of your post ${post.quoted} was not approved${reason ? `: ${reason}` : ''}`,
        link: postLink(typed.id),
      },
    ];
  }
  if (typed.stream === 'inbox' && typed.event.type === 'EventReminderSent') {
    const { memberId, eventId, title } = typed.event.data;
    return [{ memberId, kind: 'event_reminder', text: `Tomorrow: ${quote(title, 80)}`, link: `/events/${eventId}` }];
  }
  if (typed.stream === 'event') {
    const { event } = typed;
    if (
      event.type !== 'EventApproved' &&
      event.type !== 'EventRejected' &&
      event.type !== 'EventRevisionApproved' &&
      event.type !== 'EventRevisionRejected' &&
      event.type !== 'EventEdited' &&
      event.type !== 'EventCancelled' &&
      event.type !== 'OccurrenceCancelled' &&
      event.type !== 'OccurrenceMoved' &&
      event.type !== 'PromotedFromWaitlist'
    )
      return [];
    const details = await subjectOf(store, `event:${typed.id}`);
    if (!details) return [];
    const link = `/events/${typed.id}`;
    const title = details.quoted;
    switch (event.type) {
      case 'EventApproved':
        return details.authorId === event.data.by
          ? []
          : [{ memberId: details.authorId, kind: 'event_approved', text: `Your event ${title} was approved and is on the calendar`, link }];
      case 'EventRejected':
        return details.authorId === event.data.by
          ? []
          : [
              {
                memberId: details.authorId,
                kind: 'event_rejected',
                text: `Your event ${title} was not approved${event.data.reason ? `: ${event.data.reason}` : ''}`,
                link,
              },
            ];
      // An organiser's edit held for review, approved or turned down.
      case 'EventRevisionApproved':
        return details.authorId === event.data.by
          ? []
          : [{ memberId: details.authorId, kind: 'event_approved', text: `Your edit of ${title} was approved`, link }];
      case 'EventRevisionRejected':
        return details.authorId === event.data.by
          ? []
          : [
              {
                memberId: details.authorId,
                kind: 'event_rejected',
                text: `Your edit of ${title} was not approved${event.data.reason ? `: ${event.data.reason}` : ''}`,
                link,
              },
            ];
      case 'EventEdited':
      case 'EventCancelled': {
        const answered = details.answered ?? [];
        const people = event.type === 'EventCancelled' ? [...answered, ...(details.waiting ?? [])] : answered;
        const [kind, text] =
          event.type === 'EventCancelled'
            ? (['event_cancelled', `${title} was cancelled`] as const)
            : (['event_changed', `${title} changed: see the new details`] as const);
        return people.filter((memberId) => memberId !== event.data.by).map((memberId) => ({ memberId, kind, text, link }));
      }
      // One date of a series: its own people, as the stream recorded them, are told (the date in the site's words is in the mail).
      case 'OccurrenceCancelled':
      case 'OccurrenceMoved': {
        const [kind, text] =
          event.type === 'OccurrenceCancelled'
            ? (['event_cancelled', `One date of ${title} was cancelled`] as const)
            : (['event_changed', `One date of ${title} moved: see its new time`] as const);
        return event.data.told
          .filter((memberId) => memberId !== event.data.by)
          .map((memberId) => ({ memberId, kind, text, link: `${link}?occurrence=${encodeURIComponent(event.data.occurrence)}` }));
      }
      case 'PromotedFromWaitlist':
        return [
          { memberId: event.data.memberId, kind: 'waitlist_promoted', text: `A place freed up at ${title}: you are attending`, link },
        ];
    }
  }
  return [];
}

async function tellUnread(store: DocumentStore, memberIds: Iterable<string>, notify: ProjectionContext['notify']) {
  for (const memberId of new Set(memberIds))
    notify({ message: 'notifications:changed', rooms: [ROOMS.member(memberId)], payload: { unread: await unreadCount(store, memberId) } });
}

/** Of these notifications, those of this member still unread, each read by its id. */
async function unreadOf(notifications: Collection<NotificationDocument>, memberId: string, ids: readonly string[]) {
  const unread: NotificationDocument[] = [];
  for (const _id of new Set(ids)) {
    const named = await notifications.findOne({ _id });
    if (named && named.memberId === memberId && !named.read) unread.push(named);
  }
  return unread;
}

/**
 * A member's name, as notifications that begin with it read it. An erased member's own notifications go, others' name
 * them "Former member" (their name goes), and with their content, what notifications would quote of it goes
 * (docs/domain/members.md#erasure).
 */
async function followMember(memberId: string, event: MemberEvent, at: number, { store }: ProjectionContext) {
  const change = bylineChange(event);
  if (!change) return;
  if (event.type === 'MemberErased') {
    // Erasures are rare: their own notifications and the subjects are found by query.
    const notifications = notificationsCollection(store);
    for (const { _id } of await notifications.find({ memberId }, { fields: ['_id'] }))
      await applyToDocument(notifications, _id, at, () => null);
    const without = (members: string[] | undefined) => members?.filter((other) => other !== memberId);
    for (const { _id } of await subjects(store).find({ $or: [{ answered: memberId }, { waiting: memberId }] }, { fields: ['_id'] }))
      await applyToDocument(
        subjects(store),
        _id,
        at,
        (current) => current && { ...current, answered: without(current.answered), waiting: without(current.waiting) },
      );
    if (event.data.content === 'removed')
      for (const { _id } of await subjects(store).find({ authorId: memberId }, { fields: ['_id'] }))
        await applyToDocument(subjects(store), _id, at, () => null);
  }
  await applyToDocument(names(store), memberId, at, (current) => {
    const byline = change(current?.byline ?? null);
    return byline && { byline };
  });
}

export const notificationsProjection: Projection = {
  name: 'notifications',
  // 4: a feed post's notifications lead to its page (/posts/<id>), a comment's to #comment-<id> there.
  // 5: discussion replies and topics (replies to me or my topic, mentions).
  // 6: a notification keeps its actor's id and is named when read (renames rewrote every notification naming them).
  version: 6,
  collections: [NOTIFICATIONS, NOTIFICATION_SUBJECTS, NOTIFICATION_NAMES],
  async setup(store) {
    await notificationsCollection(store).createIndex({ memberId: 1, createdAt: -1, _id: -1 });
    await notificationsCollection(store).createIndex({ memberId: 1, read: 1 });
  },
  async apply(recorded, context) {
    const { store, notify, live } = context;
    const notifications = notificationsCollection(store);
    const typed = typedEvent(recorded);
    if (!typed) return;
    if (typed.stream === 'member') return followMember(typed.id, typed.event, recorded.position, context);
    if (typed.stream === 'inbox' && typed.event.type === 'NotificationsRead') {
      const { memberId, ids } = typed.event.data;
      // Those named are read by id; "all read" (rarer) by query.
      const marked = ids
        ? await unreadOf(notifications, memberId, ids)
        : await notifications.find({ memberId, read: false, cause: { $lt: recorded.position } });
      for (const notification of marked)
        await applyToDocument(notifications, notification._id, recorded.position, (current) => current && { ...current, read: true });
      if (live && marked.length > 0) await tellUnread(store, [memberId], notify);
      return;
    }
    await keepSubject(typed, recorded.position, store);
    const told = await notificationsOf(typed, store);
    const createdAt = recorded.createdAt.toISOString();
    for (const one of told)
      await applyToDocument(notifications, `${recorded.id}:${one.memberId}`, recorded.position, () => ({
        ...one,
        createdAt,
        read: false,
        cause: recorded.position,
      }));
    if (live)
      await tellUnread(
        store,
        told.map((one) => one.memberId),
        notify,
      );
  },
};
