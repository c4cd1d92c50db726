/** Notifications as the API answers them. */
import type { Notification } from '../../shared/notifications/schemas';
import type { NotificationDocument } from './notifications';

export const notificationDto = ({ _id, kind, text, link, createdAt, read }: NotificationDocument): Notification => ({
  id: _id,
  kind,
  text,
  link,
  url: link,
  createdAt,
  read,
});
