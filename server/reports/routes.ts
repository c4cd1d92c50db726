/**
 * The reports queue for staff (docs/domain/reports.md): open reports grouped by the post or comment reported;
 * dismissing keeps the content, removing takes it down. Each is an event in the content's own stream, with the
 * staff member who did it: the audit trail.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { pageSchema } from '../../shared/page';
import { postDecider } from '../../shared/feed/post-stream';
import { commentDecider } from '../../shared/comments/comment-stream';
import { topicDecider } from '../../shared/discussions/topic-stream';
import { replyDecider } from '../../shared/discussions/reply-stream';
import { ReportGroupSchema, ReportTargetParams, type ReportTargetType } from '../../shared/reports/schemas';
import { QUEUE_ORDER, reportDtos, reportKey, reportsCollection } from '../../projections/reports';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { Actor } from '../../shared/domain';
import type { ApiDependencies } from '../dependencies';

const QueueQuery = v.object(pageQuery(50));

export async function reportRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const reports = reportsCollection(services.store);
  const route = routeOptions(['reports']);

  app.get(
    '/api/admin/reports',
    route(STAFF, 'Open reports, one entry per reported post, comment, discussion topic or reply, first reported first', {
      querystring: QueueQuery,
      response: { 200: pageSchema(ReportGroupSchema) },
    }),
    async (request) => {
      const page = await findPage(reports, {}, QUEUE_ORDER, request.query);
      return { items: await reportDtos(services.store, page.items), nextCursor: page.nextCursor };
    },
  );

  /** Resolves every open report of the target the way staff chose. */
  async function resolve(targetType: ReportTargetType, targetId: string, actor: Actor, resolution: 'dismiss' | 'remove') {
    const id = targetId.toLowerCase();
    if (!(await reports.findOne({ _id: reportKey(targetType, id) }))) throw fail.notFound('No open reports for this content');
    const metadata = { now: services.now(), actor };
    if (targetType === 'post')
      await services.handle(
        postDecider,
        streamName('post', id),
        { type: resolution === 'dismiss' ? 'DismissPostReports' : 'DeletePost', data: {}, metadata },
        { actorId: actor.id },
      );
    else if (targetType === 'topic')
      await services.handle(
        topicDecider,
        streamName('topic', id),
        { type: resolution === 'dismiss' ? 'DismissTopicReports' : 'RemoveTopic', data: {}, metadata },
        { actorId: actor.id },
      );
    else if (targetType === 'reply')
      await services.handle(
        replyDecider,
        streamName('reply', id),
        { type: resolution === 'dismiss' ? 'DismissReplyReports' : 'DeleteReply', data: {}, metadata },
        { actorId: actor.id },
      );
    else
      await services.handle(
        commentDecider,
        streamName('comment', id),
        { type: resolution === 'dismiss' ? 'DismissCommentReports' : 'RemoveComment', data: {}, metadata },
        { actorId: actor.id },
      );
  }

  for (const [resolution, summary] of [
    ['dismiss', 'Keep the content: its open reports are closed'],
    [
      'remove',
      'Take the content down (a post is deleted, a topic removed, a comment or reply leaves a "removed" line): its open reports are closed',
    ],
  ] as const)
    app.put(
      `/api/admin/reports/:targetType/:targetId/${resolution}`,
      route(STAFF, summary, {
        params: ReportTargetParams,
        response: { 204: noContent(), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema },
      }),
      async (request, reply) => {
        await resolve(request.params.targetType, request.params.targetId, request.actor!, resolution);
        return reply.status(204).send();
      },
    );
}
