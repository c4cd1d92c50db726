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
  password: v.pipe(v.optional(text('Password is required'), ''), v.nonEmpty('Password is required'), v.maxLength(PASSWORD_MAX_LENGTH, 'Wrong password')),
  /** What becomes of the member's posts, comments, events and blog posts: kept as by "Former member", or removed. */
  content: v.optional(v.picklist(ERASED_CONTENT, 'content must be kept or removed'), 'kept'),
});
export type EraseAccountInput = v.InferInput<typeof EraseAccountSchema>;

const iso = v.string();

/** The export: everything the member did and everything held about them (docs/domain/members.md#export). */
export const AccountExportSchema = v.object({
  exportedAt: iso,
  about: v.string(),
  account: v.object({
    id: v.string(),
    email: v.string(),
    firstName: v.string(),
    lastName: v.string(),
    bio: v.string(),
    profileImageUrl: v.nullable(v.string()),
    role: v.picklist(ROLES),
    suspended: v.boolean(),
    registeredAt: iso,
    password: v.string(),
  }),
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
  /** Every event they caused or that concerns them, oldest first, as the event log holds it. */
  activity: v.array(v.object({ at: iso, stream: v.string(), type: v.string(), data: v.unknown() })),
});
export type AccountExport = v.InferOutput<typeof AccountExportSchema>;
