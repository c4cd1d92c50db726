/**
 * Which parts of the event log are personal data, and whose (docs/domain/members.md#erasure).
 *
 * The log is append-only and replayable, so a member's data cannot be deleted from it. Instead every stream that
 * holds personal data has its own encryption key, owned by a member; its personal fields are stored encrypted
 * (sealed), and erasing a member destroys their keys (crypto-shredding). A reader of a stream whose key is gone gets
 * the placeholders below in place of the sealed fields, so replaying the log after an erasure rebuilds nothing of it.
 *
 * Keys come in two scopes: `account` (the member's own streams: profile, sign-in, subscriptions), always destroyed;
 * and `content` (what they wrote: posts, comments, events they organise, blog posts), destroyed only when the member
 * chooses that their content goes with them. What a member writes into another's stream (the reason of a report or
 * of a rejection) is sealed with the writer's account key (WRITTEN_BY), so it goes with the writer.
 */
import { parseStreamName, streamName as streamName_, type StreamType } from './streams';

export type KeyScope = 'account' | 'content';

/** What a reader gets for a sealed field once its key is destroyed: a value, or one made from the stream's id. */
export type Placeholder = string | null | ((streamId: string) => string);

/** A sealed field's path in the event's data (dotted for nested fields) and its placeholder. */
export type PersonalFields = Readonly<Record<string, Placeholder>>;

/** The name an erased member goes by wherever their content stays (docs/domain/members.md#display-name). */
export const FORMER_MEMBER = { firstName: 'Former', lastName: 'member' } as const;

/** A unique address that can never receive mail, so read models keyed by address stay consistent during a replay. */
export const erasedEmail = (memberId: string) => `former-member-${memberId}@erased.invalid`;

const ACCOUNT_NAME: PersonalFields = { firstName: FORMER_MEMBER.firstName, lastName: FORMER_MEMBER.lastName };
const POST_TEXT: PersonalFields = { content: '', mediaUrl: null, mediaTitle: null };
const EVENT_TEXT: PersonalFields = {
  'fields.title': 'Removed event',
  'fields.description': '',
  'fields.location': '',
  'fields.virtualLink': '',
  'fields.address': null,
  'fields.geo': null,
};
const BLOG_TEXT: PersonalFields = { title: 'Removed post', excerpt: '', content: '' };
const TOPIC_TEXT: PersonalFields = { title: 'Removed topic', content: '' };

/** Who owns a stream's key (from the stream's first sealed event), and the sealed fields of each event type. */
interface StreamPolicy {
  scope: KeyScope;
  owner: (streamId: string, data: Record<string, unknown>) => string | null;
  events: Record<string, PersonalFields>;
}

/** A content stream: its key is owned by the member its first sealed event names in `field` (the author, an event's organizer). */
const contentOf = (field: string, events: Record<string, PersonalFields>): StreamPolicy => ({
  scope: 'content',
  owner: (_id, data) => ownerField(data, field),
  events,
});

/** Per stream type. */
const POLICY: Partial<Record<StreamType, StreamPolicy>> = {
  member: {
    scope: 'account',
    owner: (streamId) => streamId,
    events: {
      MemberRegistered: { email: erasedEmail, ...ACCOUNT_NAME, passwordHash: null },
      MemberProfileChanged: { ...ACCOUNT_NAME, profileImageUrl: null, bio: '' },
      MemberPasswordChanged: { passwordHash: null },
      MemberPasswordReset: { passwordHash: null },
      MemberEmailChanged: { email: erasedEmail },
      MemberSuspended: { reason: null },
    },
  },
  subscription: {
    scope: 'account',
    owner: (_streamId, data) => (typeof data.memberId === 'string' ? data.memberId : null),
    events: { SubscriptionRequested: { email: (id) => `former-subscriber-${id}@erased.invalid` }, EmailBounced: { reason: '' } },
  },
  post: contentOf('authorId', { PostSubmitted: POST_TEXT, PostEdited: POST_TEXT, PostRevisionSubmitted: POST_TEXT }),
  comment: contentOf('authorId', { CommentWritten: { content: '' }, CommentEdited: { content: '' } }),
  event: contentOf('organizerId', { EventScheduled: EVENT_TEXT, EventEdited: EVENT_TEXT, EventRevisionSubmitted: EVENT_TEXT }),
  blog: contentOf('authorId', { BlogPostDrafted: BLOG_TEXT, BlogPostEdited: BLOG_TEXT }),
  // Discussions: a topic's key is its author's, and each reply (a stream of its own) its own author's.
  topic: contentOf('authorId', { TopicStarted: TOPIC_TEXT, TopicEdited: TOPIC_TEXT }),
  reply: contentOf('authorId', { ReplyPosted: { content: '' }, ReplyEdited: { content: '' } }),
};

/**
 * Words a member writes into a stream that is not theirs: a report's reason, a rejection's. They are sealed with the
 * writer's own account key (the key of their `member-<id>` stream), not the stream's, so they go when the writer is
 * erased, whoever owns the stream. `writer`: the field of the event's data that names the writer.
 */
const WRITTEN_BY: Partial<Record<StreamType, Record<string, { writer: string; fields: PersonalFields }>>> = {
  post: {
    PostReported: { writer: 'memberId', fields: { reason: null } },
    PostRejected: { writer: 'by', fields: { reason: null } },
    PostRevisionRejected: { writer: 'by', fields: { reason: null } },
  },
  comment: { CommentReported: { writer: 'memberId', fields: { reason: null } } },
  topic: { TopicReported: { writer: 'memberId', fields: { reason: null } } },
  reply: { ReplyReported: { writer: 'memberId', fields: { reason: null } } },
  event: {
    EventRejected: { writer: 'by', fields: { reason: null } },
    EventRevisionRejected: { writer: 'by', fields: { reason: null } },
    AttendeesMessaged: { writer: 'by', fields: { subject: '', body: '' } },
  },
};

/** The fields of this event that its writer's key seals, and the stream of that key; null when there are none. */
export function writerFields(
  streamName: string,
  eventType: string,
  data: Record<string, unknown>,
): { keyStream: string; writerId: string; fields: PersonalFields } | null {
  const stream = parseStreamName(streamName);
  const policy = stream && WRITTEN_BY[stream.type]?.[eventType];
  const writerId = policy && data[policy.writer];
  return policy && typeof writerId === 'string' ? { keyStream: streamName_('member', writerId), writerId, fields: policy.fields } : null;
}

/** The fields a writer's key sealed in this event, for their placeholders once it is destroyed. */
export function writerPlaceholders(streamName: string, eventType: string): PersonalFields {
  const stream = parseStreamName(streamName);
  return (stream && WRITTEN_BY[stream.type]?.[eventType]?.fields) ?? {};
}

function ownerField(data: Record<string, unknown>, field: string): string | null {
  const value = data[field];
  return typeof value === 'string' ? value : null;
}

/** The sealed fields of this event of this stream, or null when it holds no personal data. */
export function personalFields(streamName: string, eventType: string): PersonalFields | null {
  const stream = parseStreamName(streamName);
  return (stream && POLICY[stream.type]?.events[eventType]) ?? null;
}

/**
 * Who owns the key of a stream and its scope, from the stream's first event with personal data. Null: the stream
 * belongs to no member (a guest's subscription): its key is never destroyed by an erasure.
 */
export function keyOwner(streamName: string, data: Record<string, unknown>): { memberId: string | null; scope: KeyScope } | null {
  const stream = parseStreamName(streamName);
  const policy = stream && POLICY[stream.type];
  return policy ? { memberId: policy.owner(stream.id, data), scope: policy.scope } : null;
}

/**
 * A stream whose own key goes by an event of its own: a guest's subscription of an erased member's address
 * (`SubscriptionErased`). Its key belongs to no member, so the member's erasure alone would not destroy it.
 */
export function erasesStream(streamName: string, event: { type: string }): boolean {
  return parseStreamName(streamName)?.type === 'subscription' && event.type === 'SubscriptionErased';
}

/** The event that erases a member, and whether their content goes too. */
export const MEMBER_ERASED = 'MemberErased';
export function erasureOf(streamName: string, event: { type: string; data: unknown }): { memberId: string; content: boolean } | null {
  const stream = parseStreamName(streamName);
  if (stream?.type !== 'member' || event.type !== MEMBER_ERASED) return null;
  const { content } = event.data as { content: 'kept' | 'removed' };
  return { memberId: stream.id, content: content === 'removed' };
}
