/**
 * Leaving the community: erasing one's account (`DELETE /api/me`) and taking one's data first (`GET /api/me/export`);
 * docs/domain/members.md#erasure and #export.
 */
import * as v from 'valibot';
import { text } from '../text-schema';
import { ROLES } from '../domain';
import { ERASED_CONTENT } from './member-stream';
import { PASSWORD_MAX_LENGTH } from './schemas';

export const EraseAccountSchema = v.object({
  password: v.pipe(
    v.optional(text('Password is required'), ''),
    v.nonEmpty('Password is required'),
    v.maxLength(PASSWORD_MAX_LENGTH, 'Wrong password'),
  ),
  /** What becomes of the member's posts, comments, events and blog posts: kept as by "Former member", or removed. */
  content: v.optional(v.picklist(ERASED_CONTENT, 'content must be kept or removed'), 'kept'),
});
export type EraseAccountInput = v.InferInput<typeof EraseAccountSchema>;

const iso = v.string();

const nullableIso = v.nullable(iso);

/**
 * The export: everything the member did and everything held about them (docs/domain/members.md#export). Its documents
 * (`account` to `uploads`) are what a person reads, with plain field names; `activity`, last, is the appendix: the raw
 * event log of what they did or what concerns them, which the documents are made from.
 */
export const AccountExportSchema = v.object({
  exportedAt: iso,
  about: v.string(),
  account: v.object({
    id: v.string(),
    email: v.string(),
    firstName: v.string(),
    lastName: v.string(),
    /** The name shown beside what they wrote. */
    displayName: v.string(),
    bio: v.string(),
    profileImageUrl: v.nullable(v.string()),
    role: v.picklist(ROLES),
    suspended: v.boolean(),
    registeredAt: iso,
    password: v.string(),
  }),
  /** Their feed posts, oldest first, whatever their moderation status (a deleted post is gone; the appendix keeps it). */
  posts: v.array(
    v.object({
      id: v.string(),
      text: v.string(),
      tags: v.array(v.string()),
      /** A link or an uploaded file shown with the post, if any. */
      media: v.nullable(v.object({ kind: v.string(), url: v.string(), title: v.nullable(v.string()) })),
      /** approved, pending (waiting for a moderator) or rejected. */
      status: v.string(),
      rejectionReason: v.nullable(v.string()),
      postedAt: iso,
      editedAt: nullableIso,
      likes: v.number(),
      comments: v.number(),
      url: v.string(),
    }),
  ),
  /** Their blog posts (staff and admins write the blog), oldest first. */
  blogPosts: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      excerpt: v.string(),
      text: v.string(),
      tags: v.array(v.string()),
      published: v.boolean(),
      publishedAt: nullableIso,
      writtenAt: iso,
      url: v.string(),
    }),
  ),
  /** Their comments, oldest first, with what they answer; a removed comment says so and keeps its text here. */
  comments: v.array(
    v.object({
      id: v.string(),
      on: v.object({ kind: v.picklist(['post', 'blog post']), id: v.string(), url: v.string() }),
      inReplyTo: v.nullable(v.string()),
      text: v.string(),
      writtenAt: iso,
      editedAt: nullableIso,
      removed: v.boolean(),
    }),
  ),
  /** What they wrote in discussions, oldest first: topics they started and their replies (a deleted reply says so). */
  discussions: v.object({
    topics: v.array(
      v.object({
        id: v.string(),
        title: v.string(),
        text: v.string(),
        tags: v.array(v.string()),
        startedAt: iso,
        editedAt: nullableIso,
        url: v.string(),
      }),
    ),
    replies: v.array(
      v.object({
        id: v.string(),
        topicId: v.string(),
        text: v.string(),
        writtenAt: iso,
        editedAt: nullableIso,
        deleted: v.boolean(),
        url: v.string(),
      }),
    ),
  }),
  /** The events they organise or organised, soonest first. */
  events: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      description: v.string(),
      startsAt: iso,
      endsAt: iso,
      allDay: v.boolean(),
      location: v.string(),
      online: v.boolean(),
      public: v.boolean(),
      /** approved, pending or rejected. */
      status: v.string(),
      cancelled: v.boolean(),
      createdAt: iso,
      url: v.string(),
    }),
  ),
  /** Their answers to events: attending, maybe, not attending, or waiting for a place. */
  rsvps: v.array(v.object({ event: v.object({ id: v.string(), title: v.string(), startsAt: iso, url: v.string() }), answer: v.string() })),
  subscriptions: v.array(
    v.object({
      id: v.string(),
      email: v.string(),
      /** Made signed in, or as a guest with the account's address (both end with the account). */
      madeAs: v.picklist(['member', 'guest']),
      subscriptionType: v.string(),
      frequency: v.string(),
      status: v.string(),
      createdAt: iso,
      confirmedAt: v.nullable(iso),
      unsubscribedAt: v.nullable(iso),
    }),
  ),
  sessions: v.array(v.object({ signedInAt: v.nullable(iso), lastSeenAt: v.nullable(iso), userAgent: v.nullable(v.string()) })),
  /** The files they uploaded (pictures, photos, recordings), each at the address of its largest size. */
  uploads: v.array(v.object({ id: v.string(), kind: v.string(), url: v.string(), uploadedAt: iso })),
  /** Appendix: every event they caused or that concerns them, oldest first, as the event log holds it. */
  activity: v.array(v.object({ at: iso, stream: v.string(), type: v.string(), data: v.unknown() })),
});
export type AccountExport = v.InferOutput<typeof AccountExportSchema>;
