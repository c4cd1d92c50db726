/**
 * `mail_items`: what subscription mail can be about — blog posts, feed posts and calendar events — as the mail
 * runner has seen them, with the position at which each first became public (`announcedAt`). Mail is rendered
 * from here: a blog publication event does not carry the title, and the API's read models may lag behind (or be
 * rebuilding). Digests collect the items announced after a subscriber's cursor; an item withdrawn since
 * (unpublished, rejected, deleted) is no longer `visible` and is left out, also of mail not yet sent. Each item keeps
 * its author, so that nobody is mailed about what they wrote themselves (see isOwnItem).
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { RecordedEvent } from '../../platform/event-store/port';
import type { BlogPostEvent } from '../../shared/blog/blog-stream';
import type { PostEvent } from '../../shared/feed/post-stream';
import type { CalendarEventEvent } from '../../shared/events/event-stream';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const MAIL_ITEMS = 'mail_items';

export type ItemKind = 'blog' | 'post' | 'event';

export type MailItem = Positioned & {
  _id: string;
  kind: ItemKind;
  itemId: string;
  title: string;
  /** A blog post's address, `/blog/<slug>`; absent for posts drafted before slugs (their id's address leads there too). */
  slug?: string;
  /** A blog post's excerpt, a feed post's text, an event's description: plain text. */
  text: string;
  /**
   * Who wrote the blog or feed post, or organises the event. Absent in documents written before authors were kept:
   * such an item, like one with a null author, is nobody's own and goes to every subscriber, as before.
   */
  authorId?: string | null;
  /** Blog: published; post: approved; event: approved. Deleted and rejected items are never visible. */
  approved: boolean;
  deleted: boolean;
  /** Events only: public, and when. */
  isPublic: boolean;
  startDate: string | null;
  endDate: string | null;
  allDay: boolean;
  visible: boolean;
  /** Position of the event that first made the item visible; null while it never was. */
  announcedAt: number | null;
};

export const mailItems = (store: DocumentStore) => store.collection<MailItem>(MAIL_ITEMS);
export const mailItemId = (kind: ItemKind, itemId: string) => `${kind}:${itemId}`;

type ItemFields = Omit<MailItem, '_id' | '_position' | 'visible' | 'announcedAt'>;

function blank(kind: ItemKind, itemId: string): ItemFields {
  return {
    kind,
    itemId,
    title: '',
    text: '',
    authorId: null,
    approved: false,
    deleted: false,
    isPublic: true,
    startDate: null,
    endDate: null,
    allDay: false,
  };
}

type Update = (item: ItemFields) => ItemFields;

/** Published or approved; unpublished, rejected or sent back to moderation; deleted: alike for every kind of item. */
const approved: Update = (item) => ({ ...item, approved: true });
const withdrawn: Update = (item) => ({ ...item, approved: false });
const deleted: Update = (item) => ({ ...item, deleted: true });

/** Each kind's events that change only whether its item is approved or deleted, and how. */
const BLOG_STANDING: Partial<Record<BlogPostEvent['type'], Update>> = {
  BlogPostPublished: approved,
  BlogPostUnpublished: withdrawn,
  BlogPostDeleted: deleted,
};
const POST_STANDING: Partial<Record<PostEvent['type'], Update>> = { PostApproved: approved, PostRejected: withdrawn, PostDeleted: deleted };
const EVENT_STANDING: Partial<Record<CalendarEventEvent['type'], Update>> = {
  EventApproved: approved,
  EventRejected: withdrawn,
  EventReturnedToModeration: withdrawn,
  EventDeleted: deleted,
  // A cancelled event is no news to send: it leaves the digests as a deleted one does.
  EventCancelled: deleted,
};

function blogUpdate(event: BlogPostEvent): Update | null {
  if (event.type !== 'BlogPostDrafted' && event.type !== 'BlogPostEdited') return BLOG_STANDING[event.type] ?? null;
  const { title, excerpt, slug } = event.data;
  // Only the draft says who wrote it; an edit leaves the author as it was.
  const drafted = event.type === 'BlogPostDrafted' ? { authorId: event.data.authorId } : {};
  return (item) => ({ ...item, ...drafted, title, text: excerpt, ...(slug ? { slug } : {}) });
}

function postUpdate(event: PostEvent): Update | null {
  if (event.type !== 'PostSubmitted') return POST_STANDING[event.type] ?? null;
  const { content, mediaTitle, authorId } = event.data;
  return (item) => ({ ...item, text: content, title: mediaTitle ?? '', authorId, approved: event.data.approved });
}

function calendarEventUpdate(event: CalendarEventEvent): Update | null {
  if (event.type !== 'EventScheduled' && event.type !== 'EventEdited') return EVENT_STANDING[event.type] ?? null;
  const { title, description, isPublic, startDate, endDate, allDay } = event.data.fields;
  // Only scheduling says who organises it; an edit leaves the organizer as it was.
  const scheduled = event.type === 'EventScheduled' ? { approved: event.data.approved, authorId: event.data.organizerId } : {};
  return (item) => ({ ...item, ...scheduled, title, text: description, isPublic, startDate, endDate, allDay });
}

/** How an update of one kind of item changes it, if it does. */
const itemChange = (kind: ItemKind, itemId: string, update: Update | null) => update && { kind, itemId, update };

/** How an event changes an item (the item kinds are named as their streams are); null when it does not concern mail. */
function change(recorded: RecordedEvent): { kind: ItemKind; itemId: string; update: Update } | null {
  const typed = typedEvent(recorded);
  switch (typed?.stream) {
    case 'blog':
      return itemChange('blog', typed.id, blogUpdate(typed.event));
    case 'post':
      return itemChange('post', typed.id, postUpdate(typed.event));
    case 'event':
      return itemChange('event', typed.id, calendarEventUpdate(typed.event));
    default:
      return null;
  }
}

/** A stored item's own fields, as the updates take them: less what the store and this projection add. */
function fieldsOf({ _id, _position, visible, announcedAt, slug, authorId, ...fields }: MailItem): ItemFields {
  return { ...fields, ...(slug ? { slug } : {}), authorId: authorId ?? null };
}

/**
 * Whether the item is the subscriber's own: a member is not mailed about a post they wrote or an event they organise,
 * neither at once nor in a digest. A guest (no member id) owns nothing, and neither does an item without an author.
 */
export function isOwnItem(recipient: { memberId: string | null }, item: Pick<MailItem, 'authorId'>): boolean {
  return recipient.memberId !== null && item.authorId === recipient.memberId;
}

const isVisible = (item: ItemFields) => item.approved && !item.deleted && (item.kind !== 'event' || item.isPublic);

export const mailItemsProjection: Projection = {
  name: 'mail-items',
  version: 1,
  collections: [MAIL_ITEMS],
  async setup(store) {
    await mailItems(store).createIndex({ announcedAt: 1 });
  },
  async apply(recorded, { store }) {
    const found = change(recorded);
    if (!found) return;
    const { kind, itemId, update } = found;
    await applyToDocument(mailItems(store), mailItemId(kind, itemId), recorded.position, (current) => {
      const next = update(current ? fieldsOf(current) : blank(kind, itemId));
      const visible = isVisible(next);
      return { ...next, visible, announcedAt: current?.announcedAt ?? (visible ? recorded.position : null) };
    });
  },
};
