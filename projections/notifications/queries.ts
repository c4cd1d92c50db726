/** Notifications as the API answers them: each that begins with a member's name, named as they are now. */
import type { DocumentStore } from '../../platform/document-store/port';
import { bylineName } from '../../shared/members/byline';
import type { Notification } from '../../shared/notifications/schemas';
import { names, type NotificationDocument } from './notifications';

export async function notificationDtos(store: DocumentStore, documents: readonly NotificationDocument[]): Promise<Notification[]> {
  const actorIds = [...new Set(documents.flatMap(({ actorId }) => (actorId ? [actorId] : [])))];
  const named = new Map(
    actorIds.length > 0 ? (await names(store).find({ _id: { $in: actorIds } })).map(({ _id, byline }) => [_id, bylineName(byline)]) : [],
  );
  return documents.map(({ _id, kind, text, link, createdAt, read, actorId }) => ({
    id: _id,
    kind,
    // An erased member has no name here: "Former member". A notification version 5 wrote holds its actor's name in its text.
    text: actorId ? `${named.get(actorId) ?? bylineName(null)} ${text}` : text,
    link,
    url: link,
    createdAt,
    read,
  }));
}
