/** The newsfeed (docs/domain/feed.md): posting, likes, shares, reports, moderation and community stats. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Actor } from '../../shared/domain';
import { fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { postDecider, type PostCommand } from '../../shared/feed/post-stream';
import {
  AdminStatsSchema,
  CommunityStatsSchema,
  NewPostSchema,
  PinSchema,
  PostEditSchema,
  PostRevisionSchema,
  PostSchema,
  ReasonSchema,
  type Post,
  type PostEdit,
} from '../../shared/feed/schemas';
import type { PostText } from '../../shared/feed/post-stream';
import { isModerator } from '../../shared/feed/post-stream';
import { pageSchema } from '../../shared/page';
import { FEED_PAGE_SIZE } from '../../shared/feed/constants';
import { text } from '../../shared/text-schema';
import * as feed from '../../projections/feed';
import { membersCollection } from '../../projections/members';
import { openReportCount } from '../../projections/reports';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { parse } from '../http/errors';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import type { Intent } from '../../platform/command-handler';
import { createReadCache } from '../http/read-cache';
import { createShareLedger, shareKey, sharer } from './shares';
import { resolveMentions } from '../members/directory';
import { attachedMedia } from '../media/attachments';

const IdParams = v.object({ id: v.pipe(text(), v.uuid('Post not found')) });
const FeedQuery = v.object({
  ...pageQuery(FEED_PAGE_SIZE),
  filter: v.optional(v.picklist(['all', 'trending', 'following'], 'filter must be all, trending or following'), 'all'),
  q: v.optional(v.pipe(text(), v.trim(), v.maxLength(200))),
  tag: v.optional(v.pipe(text(), v.maxLength(80))),
});
const QueueQuery = v.object(pageQuery(50));
const RevisionsQuery = v.object(pageQuery(20));

/**
 * The whole text an edit sets: the fields it names over the text it changes (the held edit, for an author who edits
 * again), parsed as a new post is. A new media address (or none) lets an upload go; otherwise the upload stays.
 */
function editedText(post: feed.FeedPostDocument, edit: PostEdit, actorIsModerator: boolean): PostText {
  const base = (!actorIsModerator && post.revision) || post;
  const mediaChanged = edit.mediaUrl !== undefined || edit.mediaType !== undefined;
  const upload = post.media && !mediaChanged && base.mediaUrl === post.media.url ? post.media : undefined;
  const mediaUrl = edit.mediaUrl !== undefined ? edit.mediaUrl : upload ? null : base.mediaUrl;
  const parsed = parse(NewPostSchema, {
    content: edit.content ?? base.content,
    tags: edit.tags ?? base.tags,
    mediaUrl,
    mediaType: edit.mediaType !== undefined ? edit.mediaType : edit.mediaUrl !== undefined ? null : upload ? null : base.mediaType,
    // A title names the media it came with.
    mediaTitle: mediaUrl === base.mediaUrl ? base.mediaTitle : null,
  });
  const { mediaId: _none, ...text } = parsed;
  return upload ? { ...text, mediaType: upload.kind, mediaUrl: upload.url, mediaTitle: null, media: upload } : text;
}

export async function feedRoutes(
  fastify: FastifyInstance,
  {
    services,
  }: {
    services: Pick<
      ApiDependencies,
      'store' | 'eventStore' | 'handle' | 'config' | 'redis' | 'presence' | 'now' | 'progress' | 'siteTimeZone'
    >;
  },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const { store, handle, config } = services;
  const posts = feed.feedPosts(store);
  const shares = createShareLedger(services.redis, config.redisPrefix);
  /** The feed's pages, kept until the next event (server/http/read-cache.ts). */
  const feedCache = createReadCache(services.progress);
  const route = routeOptions(['feed']);
  /** What the post decider may refuse: no such post, not yours, already done, against a rule. */
  const refusals = { 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema };
  const postCommand = () => ({ params: IdParams, response: { 200: PostSchema, ...refusals } });

  /**
   * A command on a post answers as a read of it would: the decider finds a post the actor may not see (another's
   * pending or rejected post) not found (shared/feed/post-stream.ts, canSeePost).
   */
  async function decide(id: string, actor: Actor | null, intent: Intent<PostCommand>) {
    return handle(
      postDecider,
      streamName('post', id),
      { ...intent, metadata: { now: services.now(), actor } },
      actor ? { actorId: actor.id } : {},
    );
  }
  /** Decides `intent` on the post's stream; answers the post as the actor now sees it (read-your-writes). */
  async function command(id: string, actor: Actor | null, intent: Intent<PostCommand>): Promise<Post> {
    await decide(id, actor, intent);
    const post = await posts.findOne({ _id: id });
    if (!post) throw fail.notFound('Post not found');
    return feed.postDto(post, actor);
  }

  /** A post as the feed shows it to the actor; 404 for one they may not see. */
  async function visiblePost(id: string, actor: Actor | null) {
    const post = await posts.findOne({ _id: id });
    if (!post || !feed.canSeePost(post, actor)) throw fail.notFound('Post not found');
    return post;
  }

  app.get(
    '/api/posts',
    route('public', 'The feed: pinned first, then newest; filtered, searched or by tag', {
      querystring: FeedQuery,
      response: { 200: pageSchema(PostSchema) },
    }),
    async (request) => {
      const { query, actor } = request;
      const { items, nextCursor } = await feed.feedPage(store, query, actor, query.limit, feedCache);
      return { items: items.map((post) => feed.postDto(post, actor)), nextCursor };
    },
  );

  app.post(
    '/api/posts',
    route(
      'signed-in',
      'Submit a post; staff posts are approved at once, others wait for moderation',
      { body: NewPostSchema, response: { 201: PostSchema, ...refusals } },
      { rateLimit: { max: config.rateLimits.posting, timeWindow: '1 minute' } },
    ),
    async (request, reply) => {
      const id = randomUUID();
      const { mediaId, ...post } = request.body;
      const media = await attachedMedia(services, mediaId, request.actor!);
      const mentions = await resolveMentions(store, post.content, request.actor!.id);
      return reply
        .status(201)
        .send(await command(id, request.actor, { type: 'SubmitPost', data: { ...post, id, mentions, ...(media ? { media } : {}) } }));
    },
  );

  app.get(
    '/api/posts/:id',
    route('public', 'One post as the feed shows it (pending and rejected ones to their author and staff only)', {
      params: IdParams,
      response: { 200: PostSchema, 404: ErrorSchema },
    }),
    async (request) => feed.postDto(await visiblePost(request.params.id, request.actor), request.actor),
  );

  app.patch(
    '/api/posts/:id',
    route(
      'signed-in',
      'Edit a post (its author or staff); a member’s edit of an approved post waits for review while the approved text stays',
      { params: IdParams, body: PostEditSchema, response: { 200: PostSchema, 400: ErrorSchema, ...refusals } },
      { rateLimit: { max: config.rateLimits.posting, timeWindow: '1 minute' } },
    ),
    async (request) => {
      const actor = request.actor!;
      const post = await visiblePost(request.params.id, actor);
      if (!feed.canSeeHistory(post, actor)) throw fail.forbidden('Only the author or staff can edit this post');
      return command(post._id, actor, { type: 'EditPost', data: editedText(post, request.body, isModerator(actor.role)) });
    },
  );

  app.get(
    '/api/posts/:id/revisions',
    route('signed-in', 'A post’s texts as posted and edited, newest first (its author and staff)', {
      params: IdParams,
      querystring: RevisionsQuery,
      response: { 200: pageSchema(PostRevisionSchema), 403: ErrorSchema, 404: ErrorSchema },
    }),
    async (request) => {
      const post = await visiblePost(request.params.id, request.actor);
      if (!feed.canSeeHistory(post, request.actor)) throw fail.forbidden('Only the author or staff can see the history of this post');
      return feed.revisionPage(store, post._id, request.query);
    },
  );

  app.put('/api/posts/:id/like', route('signed-in', 'Like a post', postCommand()), async (request) =>
    command(request.params.id, request.actor, { type: 'LikePost', data: {} }),
  );
  app.delete('/api/posts/:id/like', route('signed-in', 'Take back a like', postCommand()), async (request) =>
    command(request.params.id, request.actor, { type: 'UnlikePost', data: {} }),
  );
  app.post(
    '/api/posts/:id/share',
    route('public', 'Count a share; once a day per reader', postCommand(), {
      rateLimit: { max: config.rateLimits.shares, timeWindow: '1 minute' },
    }),
    async (request) => {
      const { id } = request.params;
      const post = await posts.findOne({ _id: id });
      // Only an approved post can be shared: anything else goes to the decider, which refuses it and says why.
      if (post?.status !== 'approved') return command(id, request.actor, { type: 'SharePost', data: {} });
      const key = shareKey(id, sharer(request.actor, request.ip), services.now(), await services.siteTimeZone());
      if (!(await shares.claim(key))) return feed.postDto(post, request.actor);
      try {
        return await command(id, request.actor, { type: 'SharePost', data: {} });
      } catch (error) {
        await shares.release(key);
        throw error;
      }
    },
  );
  app.post(
    '/api/posts/:id/report',
    route('signed-in', 'Report a post to the moderators', { ...postCommand(), body: ReasonSchema }),
    async (request) => command(request.params.id, request.actor, { type: 'ReportPost', data: request.body }),
  );
  app.delete(
    '/api/posts/:id',
    route('signed-in', 'Delete a post (its author or staff)', { params: IdParams, response: { 204: noContent(), ...refusals } }),
    async (request, reply) => {
      await decide(request.params.id, request.actor, { type: 'DeletePost', data: {} });
      return reply.status(204).send();
    },
  );

  app.put('/api/admin/posts/:id/approve', route(STAFF, 'Approve a pending post', postCommand()), async (request) =>
    command(request.params.id, request.actor, { type: 'ApprovePost', data: {} }),
  );
  app.put(
    '/api/admin/posts/:id/reject',
    route(STAFF, 'Reject a pending post, with a reason its author sees', { ...postCommand(), body: ReasonSchema }),
    async (request) => command(request.params.id, request.actor, { type: 'RejectPost', data: request.body }),
  );
  app.put(
    '/api/admin/posts/:id/pin',
    route(STAFF, 'Pin a post to the top of the feed (`{ pinned: false }` unpins)', { ...postCommand(), body: PinSchema }),
    async (request) => command(request.params.id, request.actor, { type: request.body.pinned ? 'PinPost' : 'UnpinPost', data: {} }),
  );
  app.put('/api/admin/posts/:id/unpin', route(STAFF, 'Unpin a post', postCommand()), async (request) =>
    command(request.params.id, request.actor, { type: 'UnpinPost', data: {} }),
  );

  app.get(
    '/api/admin/posts/pending',
    route(STAFF, 'The moderation queue, oldest first: pending posts and held edits (`pendingRevision`)', {
      querystring: QueueQuery,
      response: { 200: pageSchema(PostSchema) },
    }),
    async (request) => {
      const page = await findPage(posts, feed.IN_REVIEW, feed.QUEUE_ORDER, request.query);
      return mapPage(page, (post) => feed.postDto(post, request.actor));
    },
  );

  const weekAgo = () => new Date(services.now().getTime() - 7 * 24 * 3600 * 1000).toISOString();

  app.get(
    '/api/stats',
    route('signed-in', 'The community figures of the sidebar', { response: { 200: CommunityStatsSchema } }),
    async () => {
      const [totalPosts, activeMembers, online, postsThisWeek, trending] = await Promise.all([
        feed.publishedPostCount(store),
        membersCollection(store).countDocuments({ suspended: false }),
        services.presence.online(),
        posts.countDocuments({ status: 'approved', createdAt: { $gte: weekAgo() } }),
        feed.trendingTags(store, services.now()),
      ]);
      return { totalPosts, activeMembers, onlineNow: online.length, postsThisWeek, trendingTags: trending };
    },
  );

  app.get('/api/admin/stats', route(STAFF, 'The admin dashboard’s figures', { response: { 200: AdminStatsSchema } }), async () => {
    const [totalPosts, online, pendingApproval, reportedContent] = await Promise.all([
      feed.publishedPostCount(store),
      services.presence.online(),
      posts.countDocuments(feed.IN_REVIEW),
      openReportCount(store),
    ]);
    return { totalPosts, activeUsers: online.length, pendingApproval, reportedContent };
  });
}
