/** Notifications' read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { notificationsProjection, notificationsCollection, unreadCount } from './notifications';
export { notificationDtos } from './queries';
