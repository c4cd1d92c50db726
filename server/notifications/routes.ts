/** A member's notifications (docs/domain/notifications.md): newest first with the unread count; mark some or all read. */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { streamName } from '../../shared/streams';
import { inboxDecider } from '../../shared/notifications/inbox-stream';
import { MarkReadSchema, NOTIFICATION_PAGE_SIZE, NotificationPageSchema } from '../../shared/notifications/schemas';
import { notificationDtos, notificationsCollection, unreadCount } from '../../projections/notifications';
import { ErrorSchema, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, pageQuery } from '../http/pagination';
import type { ApiDependencies } from '../dependencies';

const ListQuery = v.object(pageQuery(NOTIFICATION_PAGE_SIZE));
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

export async function notificationRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const notifications = notificationsCollection(services.store);
  const route = routeOptions(['notifications']);

  async function page(memberId: string, query: v.InferOutput<typeof ListQuery>) {
    const [found, unread] = await Promise.all([
      findPage(notifications, { memberId }, NEWEST_FIRST, query),
      unreadCount(services.store, memberId),
    ]);
    return { items: await notificationDtos(services.store, found.items), unread, nextCursor: found.nextCursor };
  }

  app.get(
    '/api/notifications',
    route('signed-in', 'My notifications, newest first, with how many are unread', {
      querystring: ListQuery,
      response: { 200: NotificationPageSchema },
    }),
    (request) => page(request.actor!.id, request.query),
  );
  app.put(
    '/api/notifications/read',
    route('signed-in', 'Mark some of my notifications read (by id), or all of them (no ids)', {
      body: MarkReadSchema,
      response: { 200: NotificationPageSchema, 400: ErrorSchema },
    }),
    async (request) => {
      const actor = request.actor!;
      const ids = request.body?.ids ?? null;
      await services.handle(
        inboxDecider,
        streamName('inbox', actor.id),
        { type: 'MarkNotificationsRead', data: { memberId: actor.id, ids }, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
      return page(actor.id, { limit: NOTIFICATION_PAGE_SIZE });
    },
  );
}
