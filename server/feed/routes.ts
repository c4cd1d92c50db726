/** The newsfeed (docs/domain/feed.md): posting, likes, shares, reports, moderation and community stats. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Actor } from '../../shared/domain';
import { fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { postDecider, type PostCommand } from '../../shared/feed/post-stream';
import { NewPostSchema, ReasonSchema } from '../../shared/feed/schemas';
import { FEED_PAGE_SIZE } from '../../shared/feed/constants';
import { text } from '../../shared/text-schema';
import { feedPosts, tagCounts } from '../../projections/feed/feed';
import { membersCollection } from '../../projections/members/members';
import { parse } from '../http/errors';
import { findPage, mapPage, OLDEST_FIRST, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import type { Intent } from '../../platform/command-handler';
import { feedPage, postDto, trendingTags } from './feed-queries';
import { createShareLedger, shareKey, sharer } from './shares';

const IdParams = v.object({ id: v.pipe(text(), v.uuid('Post not found')) });
const FeedQuery = v.object({
  ...pageQuery(FEED_PAGE_SIZE),
  filter: v.optional(v.picklist(['all', 'trending', 'following'], 'filter must be all, trending or following'), 'all'),
  q: v.optional(v.pipe(text(), v.trim(), v.maxLength(200))),
  tag: v.optional(v.pipe(text(), v.maxLength(80))),
});
const QueueQuery = v.object(pageQuery(50));

export async function feedRoutes(app: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'redis' | 'presence' | 'now'> }) {
  const { store, handle, config } = services;
  const posts = feedPosts(store);
  const shares = createShareLedger(services.redis, config.redisPrefix);

  async function command(id: string, actor: Actor | null, intent: Intent<PostCommand>) {
    await handle(postDecider, streamName('post', id), { ...intent, metadata: { now: services.now(), actor } }, actor ? { actorId: actor.id } : {});
    const post = await posts.findOne({ _id: id });
    return post && postDto(post, actor);
  }

  app.get('/api/posts', { config: { access: 'public' } }, async (request) => {
    const query = parse(FeedQuery, request.query);
    const actor = request.actor;
    const { items, nextCursor } = await feedPage(posts, query, actor, query.limit);
    return { items: items.map((post) => postDto(post, actor)), nextCursor };
  });

  app.post('/api/posts', { config: { access: 'signed-in', rateLimit: { max: config.rateLimits.posting, timeWindow: '1 minute' } } }, async (request, reply) => {
    const post = parse(NewPostSchema, request.body);
    const id = randomUUID();
    return reply.status(201).send(await command(id, request.actor, 'SubmitPost', { ...post, id }));
  });

  app.put('/api/posts/:id/like', { config: { access: 'signed-in' } }, async (request) => command(parse(IdParams, request.params).id, request.actor, { type: 'LikePost', data: {} }));
  app.delete('/api/posts/:id/like', { config: { access: 'signed-in' } }, async (request) => command(parse(IdParams, request.params).id, request.actor, 'UnlikePost'));
  app.post('/api/posts/:id/share', { config: { access: 'public', rateLimit: { max: config.rateLimits.shares, timeWindow: '1 minute' } } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    const post = await posts.findOne({ _id: id });
    // Only an approved post can be shared: anything else goes to the decider, which refuses it and says why.
    if (post?.status !== 'approved') return command(id, request.actor, 'SharePost');
    const key = shareKey(id, sharer(request.actor, request.ip), services.now(), config.timeZone);
    if (!(await shares.claim(key))) return postDto(post, request.actor);
    try {
      return await command(id, request.actor, 'SharePost');
    } catch (error) {
      await shares.release(key);
      throw error;
    }
  });
  app.post('/api/posts/:id/report', { config: { access: 'signed-in' } }, async (request) =>
    command(parse(IdParams, request.params).id, request.actor, 'ReportPost', parse(ReasonSchema, request.body) ?? {}),
  );
  app.delete('/api/posts/:id', { config: { access: 'signed-in' } }, async (request, reply) => {
    await command(parse(IdParams, request.params).id, request.actor, 'DeletePost');
    return reply.status(204).send();
  });

  app.put('/api/admin/posts/:id/approve', { config: { access: STAFF } }, async (request) => command(parse(IdParams, request.params).id, request.actor, 'ApprovePost'));
  app.put('/api/admin/posts/:id/reject', { config: { access: STAFF } }, async (request) =>
    command(parse(IdParams, request.params).id, request.actor, 'RejectPost', parse(ReasonSchema, request.body) ?? {}),
  );
  app.put('/api/admin/posts/:id/pin', { config: { access: STAFF } }, async (request) => command(parse(IdParams, request.params).id, request.actor, 'PinPost'));
  app.put('/api/admin/posts/:id/unpin', { config: { access: STAFF } }, async (request) => command(parse(IdParams, request.params).id, request.actor, 'UnpinPost'));

  app.get('/api/admin/posts/pending', { config: { access: STAFF } }, async (request) => {
    const page = await findPage(posts, { status: 'pending' }, OLDEST_FIRST, parse(QueueQuery, request.query));
    return mapPage(page, (post) => postDto(post, request.actor));
  });

  const weekAgo = () => new Date(services.now().getTime() - 7 * 24 * 3600 * 1000).toISOString();

  app.get('/api/stats', { config: { access: 'signed-in' } }, async () => {
    const [totalPosts, activeMembers, online, postsThisWeek, tags] = await Promise.all([
      posts.countDocuments({ status: 'approved' }),
      membersCollection(store).countDocuments({ suspended: false }),
      services.presence.online(),
      posts.countDocuments({ status: 'approved', createdAt: { $gte: weekAgo() } }),
      trendingTags(tagCounts(store), services.now()),
    ]);
    return { totalPosts, activeMembers, onlineNow: online.length, postsThisWeek, trendingTags: tags };
  });

  app.get('/api/admin/stats', { config: { access: STAFF } }, async () => {
    const [totalPosts, online, pendingApproval, reportedContent] = await Promise.all([
      posts.countDocuments({ status: 'approved' }),
      services.presence.online(),
      posts.countDocuments({ status: 'pending' }),
      posts.countDocuments({ reports: { $gt: 0 } }),
    ]);
    return { totalPosts, activeUsers: online.length, pendingApproval, reportedContent };
  });
}
