/**
 * Comments on feed posts and published blog posts (docs/domain/comments.md): threads oldest first with one level of
 * replies, written at once (no pre-moderation, rate-limited), edited by their author, removed by their author or staff.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { type Actor, fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { text } from '../../shared/text-schema';
import { pageSchema } from '../../shared/page';
import { COMMENT_PAGE_SIZE, type CommentTargetType } from '../../shared/comments/constants';
import { commentDecider, type CommentCommand } from '../../shared/comments/comment-stream';
import { CommentEditSchema, CommentSchema, NewCommentSchema, type Comment } from '../../shared/comments/schemas';
import { ReasonSchema } from '../../shared/feed/schemas';
import { isModerator } from '../../shared/feed/post-stream';
import { commentDtos, commentsCollection } from '../../projections/comments';
import { canSeePost, feedPosts } from '../../projections/feed';
import { blogPosts } from '../../projections/blog';
import { membersCollection } from '../../projections/members';
import { displayName } from '../../shared/members/display';
import type { Intent } from '../../platform/command-handler';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, OLDEST_FIRST, pageQuery } from '../http/pagination';
import type { ApiDependencies } from '../dependencies';
import { resolveMentions } from '../members/directory';
import { knownId } from '../http/ids';

const IdParams = v.object({ id: text() });
const ThreadQuery = v.object(pageQuery(COMMENT_PAGE_SIZE));

export async function commentRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const comments = commentsCollection(services.store);
  const route = routeOptions(['comments']);
  const refusals = { 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema };

  /**
   * The target as this reader may see it: `open` when comments may be written on it (a post in the feed, a
   * published blog post). An unknown target, or one the reader may not see, is not found.
   */
  async function target(targetType: CommentTargetType, rawId: string, actor: Actor | null): Promise<{ id: string; open: boolean }> {
    if (targetType === 'post') {
      const id = knownId(rawId, 'Post not found');
      const post = await feedPosts(services.store).findOne({ _id: id });
      if (!post || !canSeePost(post, actor)) throw fail.notFound('Post not found');
      return { id, open: post.status === 'approved' };
    }
    const id = knownId(rawId, 'Blog post not found');
    const post = await blogPosts(services.store).findOne({ _id: id });
    if (!post?.isPublished) throw fail.notFound('Blog post not found');
    return { id, open: true };
  }

  /**
   * A command on a comment answers as a read of it would: a comment under a post the actor may not see (pending,
   * rejected or deleted; a blog post unpublished, which only staff see) is not found, and nothing is decided on it.
   */
  async function visibleComment(id: string, actor: Actor | null): Promise<void> {
    const comment = await comments.findOne({ _id: id });
    const visible = !comment
      ? false
      : comment.targetType === 'post'
        ? await feedPosts(services.store)
            .findOne({ _id: comment.targetId })
            .then((post) => post !== null && canSeePost(post, actor))
        : await blogPosts(services.store)
            .findOne({ _id: comment.targetId })
            .then((post) => post !== null && (post.isPublished || (actor !== null && isModerator(actor.role))));
    if (!visible) throw fail.notFound('Comment not found');
  }

  async function decide(id: string, actor: Actor | null, intent: Intent<CommentCommand>) {
    if (intent.type !== 'WriteComment') await visibleComment(id, actor);
    return services.handle(
      commentDecider,
      streamName('comment', id),
      { ...intent, metadata: { now: services.now(), actor } },
      actor ? { actorId: actor.id } : {},
    );
  }
  /** Decides `intent` on the comment's stream; answers the comment as it now is (read-your-writes). */
  async function command(id: string, actor: Actor | null, intent: Intent<CommentCommand>): Promise<Comment> {
    const { events } = await decide(id, actor, intent);
    const comment = await comments.findOne({ _id: id });
    if (comment) return (await commentDtos(services.store, [comment]))[0]!;
    // A storm of writes can keep the read models behind longer than read-your-writes waits: a comment just
    // written is then answered from the event that wrote it, not as missing.
    const written = events.find((event) => event.type === 'CommentWritten');
    if (!written || !actor) throw fail.notFound('Comment not found');
    const member = await membersCollection(services.store).findOne({ _id: actor.id });
    const { targetType, targetId, parentId, content, at } = written.data;
    const author = {
      id: actor.id,
      name: member ? displayName(member) : 'Former member',
      avatar: member?.profileImageUrl ?? null,
      role: actor.role,
    };
    return { id, targetType, targetId, parentId, author, content, createdAt: at, editedAt: null, removed: false };
  }
  const commentId = ({ id }: { id: string }) => knownId(id, 'Comment not found');

  for (const [targetType, path, noun] of [
    ['post', '/api/posts/:id/comments', 'a feed post'],
    ['blog', '/api/blog/:id/comments', 'a published blog post'],
  ] as const) {
    app.get(
      path,
      route('public', `The comments on ${noun}, oldest first; removed ones stay, without their text`, {
        params: IdParams,
        querystring: ThreadQuery,
        response: { 200: pageSchema(CommentSchema), 404: ErrorSchema },
      }),
      async (request) => {
        const { id } = await target(targetType, request.params.id, request.actor);
        const page = await findPage(comments, { targetType, targetId: id }, OLDEST_FIRST, request.query);
        return { items: await commentDtos(services.store, page.items), nextCursor: page.nextCursor };
      },
    );
    app.post(
      path,
      route(
        'signed-in',
        `Comment on ${noun}, or reply to one of its comments (one level deep); subscribers only read`,
        { params: IdParams, body: NewCommentSchema, response: { 201: CommentSchema, ...refusals } },
        { rateLimit: { max: services.config.rateLimits.comments, timeWindow: '1 minute' } },
      ),
      async (request, reply) => {
        const { id: targetId, open } = await target(targetType, request.params.id, request.actor);
        if (!open) throw fail.rule('Comments open once the post is approved');
        const { content, parentId } = request.body;
        let parent = null;
        if (parentId) {
          const replied = await comments.findOne({ _id: parentId.toLowerCase() });
          if (!replied) throw fail.notFound('The comment replied to was not found');
          parent = {
            id: replied._id,
            targetType: replied.targetType,
            targetId: replied.targetId,
            parentId: replied.parentId,
            removed: replied.removed,
          };
        }
        const id = randomUUID();
        const mentions = await resolveMentions(services.store, content, request.actor!.id);
        return reply
          .status(201)
          .send(await command(id, request.actor, { type: 'WriteComment', data: { id, targetType, targetId, content, parent, mentions } }));
      },
    );
  }

  app.patch(
    '/api/comments/:id',
    route('signed-in', 'Edit my comment', { params: IdParams, body: CommentEditSchema, response: { 200: CommentSchema, ...refusals } }),
    async (request) => command(commentId(request.params), request.actor, { type: 'EditComment', data: request.body }),
  );
  app.delete(
    '/api/comments/:id',
    route('signed-in', 'Remove a comment (its author or staff); the thread keeps a "removed" line', {
      params: IdParams,
      response: { 204: noContent(), ...refusals },
    }),
    async (request, reply) => {
      await decide(commentId(request.params), request.actor, { type: 'RemoveComment', data: {} });
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/comments/:id/report',
    route('signed-in', 'Report a comment to the moderators', {
      params: IdParams,
      body: ReasonSchema,
      response: { 200: CommentSchema, ...refusals },
    }),
    async (request) => command(commentId(request.params), request.actor, { type: 'ReportComment', data: request.body ?? {} }),
  );
}
