/** Notifications (docs/domain/notifications.md): what a member is told, and how they mark it read. */
import * as v from 'valibot';
import { text } from '../text-schema';

export const NOTIFICATION_KINDS = [
  'comment',
  'reply',
  'mention',
  'post_approved',
  'post_rejected',
  'post_edit_approved',
  'post_edit_rejected',
  'event_approved',
  'event_rejected',
  'event_changed',
  'event_cancelled',
  'waitlist_promoted',
  'event_reminder',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATION_PAGE_SIZE = 30;
/** At most this many ids in one "mark read". */
export const MARK_READ_MAX = 100;

export const NotificationSchema = v.object({
  id: v.string(),
  kind: v.picklist(NOTIFICATION_KINDS),
  text: v.string(),
  /** Where the notification leads: a path on this site. */
  link: v.string(),
  /** The same path as `link`: clients may read either name. */
  url: v.string(),
  createdAt: v.string(),
  read: v.boolean(),
});
export type Notification = v.InferOutput<typeof NotificationSchema>;

export const NotificationPageSchema = v.object({
  items: v.array(NotificationSchema),
  unread: v.pipe(v.number(), v.integer(), v.minValue(0)),
  nextCursor: v.nullable(v.string()),
});

/** Some notifications by id, or (no ids) every one so far. */
export const MarkReadSchema = v.nullish(
  v.object({
    ids: v.optional(
      v.pipe(v.array(v.pipe(text(), v.maxLength(200))), v.maxLength(MARK_READ_MAX, `Mark at most ${MARK_READ_MAX} notifications at once`)),
    ),
  }),
);
