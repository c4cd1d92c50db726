/**
 * Discussions (docs/domain/discussions.md): staff-managed categories; topics and their replies, read by every
 * signed-in member (subscribers too) and written by members, staff and admins; each member's place in a topic and how
 * closely they watch it; staff pin, lock and move topics; reports go to the staff's queue.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { type Actor, fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { text } from '../../shared/text-schema';
import { pageSchema } from '../../shared/page';
import { ReasonSchema } from '../../shared/feed/schemas';
import { REPLY_PAGE_SIZE, TOPIC_PAGE_SIZE } from '../../shared/discussions/constants';
import { categoryDecider, type CategoryCommand } from '../../shared/discussions/category-stream';
import { canSeeRevisions, categorySlug } from '../../shared/discussions/rules';
import {
  CategoryChangeSchema,
  CategorySchema,
  NewCategorySchema,
  NewReplySchema,
  NewTopicSchema,
  ReadPositionSchema,
  ReadUpToSchema,
  ReplyEditSchema,
  ReplyRevisionSchema,
  ReplySchema,
  TopicEditSchema,
  TopicModerationSchema,
  TopicPageSchema,
  TopicSchema,
  TopicSummarySchema,
  UnreadTopicsSchema,
  WatchAnswerSchema,
  WatchSchema,
  type Category,
  type Reply,
} from '../../shared/discussions/schemas';
import type { Intent } from '../../platform/command-handler';
import * as discussions from '../../projections/discussions';
import type { TopicCommand } from '../../shared/discussions/topic-stream';
import type { ReplyCommand } from '../../shared/discussions/reply-stream';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import { knownId } from '../http/ids';
import type { ApiDependencies } from '../dependencies';
import { discussionHtml } from './content';
import { decideReading, decideReply, decideTopic, mentionsIn, replyAs } from './commands';

const IdParams = v.object({ id: text() });
const TopicListQuery = v.object({
  ...pageQuery(TOPIC_PAGE_SIZE),
  category: v.optional(v.pipe(text(), v.trim(), v.maxLength(100))),
  tag: v.optional(v.pipe(text(), v.maxLength(80))),
  q: v.optional(v.pipe(text(), v.trim(), v.maxLength(200))),
});
const RepliesQuery = v.object(pageQuery(REPLY_PAGE_SIZE));

export async function discussionRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const { store, config } = services;
  const route = routeOptions(['discussions']);
  const refusals = { 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema };
  const posting = { max: config.rateLimits.comments, timeWindow: '1 minute' };

  const topicId = (raw: string) => knownId(raw, 'Topic not found');
  const replyId = (raw: string) => knownId(raw, 'Reply not found');
  const categoryId = (raw: string) => knownId(raw, 'Category not found');

  async function openTopic(raw: string) {
    const topic = await discussions.visibleTopic(store, topicId(raw));
    if (!topic) throw fail.notFound('Topic not found');
    return topic;
  }
  /** A reply in a topic members see; none in a removed topic. */
  async function visibleReply(raw: string) {
    const reply = await discussions.findReply(store, replyId(raw));
    if (!reply || !(await discussions.visibleTopic(store, reply.topicId))) throw fail.notFound('Reply not found');
    return reply;
  }
  async function topicAnswer(id: string, actor: Actor) {
    const topic = await discussions.visibleTopic(store, id);
    if (!topic) throw fail.notFound('Topic not found');
    return discussions.topicDto(store, topic, actor.id);
  }
  async function replyAnswer(id: string): Promise<Reply> {
    const reply = await discussions.findReply(store, id);
    if (!reply) throw fail.notFound('Reply not found');
    return discussions.replyDto(store, reply);
  }
  async function onTopic(raw: string, actor: Actor, intent: Intent<TopicCommand>) {
    const topic = await openTopic(raw);
    await decideTopic(services, topic._id, actor, intent);
    return topicAnswer(topic._id, actor);
  }
  async function onReply(raw: string, actor: Actor, intent: Intent<ReplyCommand>) {
    const reply = await visibleReply(raw);
    await decideReply(services, reply._id, actor, intent);
    return replyAnswer(reply._id);
  }
  async function onCategory(id: string, actor: Actor, intent: Intent<CategoryCommand>): Promise<Category | null> {
    await services.handle(
      categoryDecider,
      streamName('category', id),
      { ...intent, metadata: { now: services.now(), actor } },
      { actorId: actor.id },
    );
    const category = await discussions.findCategory(store, id);
    return category && discussions.categoryDto(category);
  }
  /** A category's address is its name's: two categories may not share one. */
  async function freeSlug(name: string, except: string | null) {
    const slug = categorySlug(name);
    const holder = await discussions.categoryBySlug(store, slug);
    if (holder && holder._id !== except) throw fail.conflict('A category of that name already exists');
    return slug;
  }

  // Categories

  app.get(
    '/api/categories',
    route('signed-in', 'The discussion categories, by name, with their topic counts', { response: { 200: v.array(CategorySchema) } }),
    async () => (await discussions.allCategories(store)).map(discussions.categoryDto),
  );
  app.post(
    '/api/admin/categories',
    route(STAFF, 'Add a discussion category', { body: NewCategorySchema, response: { 201: CategorySchema, ...refusals } }),
    async (request, reply) => {
      const id = randomUUID();
      const { name, description, color } = request.body;
      const slug = await freeSlug(name, null);
      const category = await onCategory(id, request.actor!, { type: 'CreateCategory', data: { id, name, slug, description, color } });
      if (!category) throw fail.notFound('Category not found');
      return reply.status(201).send(category);
    },
  );
  app.patch(
    '/api/admin/categories/:id',
    route(STAFF, 'Rename a category, or change its description or colour', {
      params: IdParams,
      body: CategoryChangeSchema,
      response: { 200: CategorySchema, ...refusals },
    }),
    async (request) => {
      const id = categoryId(request.params.id);
      const { name, description, color } = request.body;
      const slug = name === undefined ? undefined : await freeSlug(name, id);
      const category = await onCategory(id, request.actor!, { type: 'ChangeCategory', data: { name, slug, description, color } });
      if (!category) throw fail.notFound('Category not found');
      return category;
    },
  );
  app.delete(
    '/api/admin/categories/:id',
    route(STAFF, 'Delete a category that holds no topics (409 while it holds some)', {
      params: IdParams,
      response: { 204: noContent(), ...refusals },
    }),
    async (request, reply) => {
      const id = categoryId(request.params.id);
      const category = await discussions.findCategory(store, id);
      await onCategory(id, request.actor!, { type: 'DeleteCategory', data: { topicCount: category?.topicCount ?? 0 } });
      return reply.status(204).send();
    },
  );

  // Topics

  app.get(
    '/api/topics',
    route(
      'signed-in',
      'Topics, pinned first then most recently active; by category (id or slug), tag or full-text search, with my unread counts',
      { querystring: TopicListQuery, response: { 200: pageSchema(TopicSummarySchema) } },
    ),
    async (request) => discussions.topicList(store, request.query, request.actor!.id),
  );
  app.get(
    '/api/topics/unread',
    route('signed-in', 'How many recently active topics have something I have not read (muted ones aside)', {
      response: { 200: UnreadTopicsSchema },
    }),
    async (request) => ({ count: await discussions.unreadTopicCount(store, request.actor!.id) }),
  );
  app.post(
    '/api/topics',
    route(
      'signed-in',
      'Start a topic in a category (I then watch it)',
      { body: NewTopicSchema, response: { 201: TopicSchema, ...refusals } },
      { rateLimit: { max: config.rateLimits.posting, timeWindow: '1 minute' } },
    ),
    async (request, reply) => {
      const actor = request.actor!;
      const { title, categoryId: rawCategory, tags: topicTags } = request.body;
      const category = await discussions.findCategory(store, rawCategory.toLowerCase());
      if (!category) throw fail.notFound('Category not found');
      const content = discussionHtml(request.body.content);
      const id = randomUUID();
      const mentions = await mentionsIn(services, content, actor.id);
      await decideTopic(services, id, actor, {
        type: 'StartTopic',
        data: { id, categoryId: category._id, title, content, tags: topicTags, mentions },
      });
      return reply.status(201).send(await topicAnswer(id, actor));
    },
  );
  app.get(
    '/api/topics/:id',
    route('signed-in', 'A topic with its replies, oldest first, a page at a time', {
      params: IdParams,
      querystring: RepliesQuery,
      response: { 200: TopicPageSchema, 404: ErrorSchema },
    }),
    async (request) => {
      const topic = await openTopic(request.params.id);
      const [answer, replies] = await Promise.all([
        discussions.topicDto(store, topic, request.actor!.id),
        discussions.replyPage(store, topic._id, request.query),
      ]);
      return { topic: answer, replies };
    },
  );
  app.patch(
    '/api/topics/:id',
    route('signed-in', 'Edit my topic: its title, opening post or tags', {
      params: IdParams,
      body: TopicEditSchema,
      response: { 200: TopicSchema, ...refusals },
    }),
    async (request) => {
      const { title, content, tags: topicTags } = request.body;
      const html = content === undefined ? undefined : discussionHtml(content);
      return onTopic(request.params.id, request.actor!, { type: 'EditTopic', data: { title, content: html, tags: topicTags } });
    },
  );
  app.post(
    '/api/topics/:id/report',
    route('signed-in', 'Report a topic to the moderators', {
      params: IdParams,
      body: ReasonSchema,
      response: { 200: TopicSchema, ...refusals },
    }),
    async (request) => onTopic(request.params.id, request.actor!, { type: 'ReportTopic', data: { reason: request.body?.reason } }),
  );
  app.put(
    '/api/admin/topics/:id',
    route(STAFF, 'Pin, lock or move a topic (staff)', {
      params: IdParams,
      body: TopicModerationSchema,
      response: { 200: TopicSchema, ...refusals },
    }),
    async (request) => {
      const { pinned, locked } = request.body;
      let moveTo: string | undefined;
      if (request.body.categoryId) {
        const category = await discussions.findCategory(store, request.body.categoryId.toLowerCase());
        if (!category) throw fail.notFound('Category not found');
        moveTo = category._id;
      }
      return onTopic(request.params.id, request.actor!, { type: 'ModerateTopic', data: { pinned, locked, categoryId: moveTo } });
    },
  );

  // My place in a topic

  app.put(
    '/api/topics/:id/read',
    route('signed-in', 'Record that I have read the topic up to this reply (or its opening post: the topic id); it only moves forward', {
      params: IdParams,
      body: ReadUpToSchema,
      response: { 200: ReadPositionSchema, ...refusals },
    }),
    async (request) => {
      const actor = request.actor!;
      const topic = await openTopic(request.params.id);
      const upTo = request.body.upTo.toLowerCase();
      let number = 0;
      if (upTo !== topic._id) {
        const reply = await discussions.findReply(store, upTo);
        if (!reply || reply.topicId !== topic._id) throw fail.notFound('Reply not found');
        number = reply.number;
      }
      await decideReading(services, topic._id, actor, {
        type: 'ReadTopicUpTo',
        data: { topicId: topic._id, memberId: actor.id, replyId: upTo, number },
      });
      const { readUpTo, unread } = await topicAnswer(topic._id, actor);
      return { topicId: topic._id, readUpTo: readUpTo ?? number, unread };
    },
  );
  app.put(
    '/api/topics/:id/watch',
    route('signed-in', 'How closely I follow a topic: watching (every reply, by mail too), normal, or muted', {
      params: IdParams,
      body: WatchSchema,
      response: { 200: WatchAnswerSchema, ...refusals },
    }),
    async (request) => {
      const actor = request.actor!;
      const topic = await openTopic(request.params.id);
      const { level } = request.body;
      await decideReading(services, topic._id, actor, { type: 'WatchTopic', data: { topicId: topic._id, memberId: actor.id, level } });
      return { topicId: topic._id, level: (await discussions.readerOf(store, topic._id, actor.id))?.level ?? level };
    },
  );

  // Replies

  app.post(
    '/api/topics/:id/replies',
    route(
      'signed-in',
      'Reply in a topic, perhaps to one of its replies (I then watch it); a locked topic refuses (409)',
      { params: IdParams, body: NewReplySchema, response: { 201: ReplySchema, ...refusals } },
      { rateLimit: posting },
    ),
    async (request, reply) => reply.status(201).send(await replyAs(services, request.actor!, topicId(request.params.id), request.body)),
  );
  app.patch(
    '/api/replies/:id',
    route('signed-in', 'Edit my reply (its earlier text is kept)', {
      params: IdParams,
      body: ReplyEditSchema,
      response: { 200: ReplySchema, ...refusals },
    }),
    async (request) =>
      onReply(request.params.id, request.actor!, { type: 'EditReply', data: { content: discussionHtml(request.body.content) } }),
  );
  app.delete(
    '/api/replies/:id',
    route('signed-in', 'Delete a reply (its author or staff); the topic keeps a "deleted" line', {
      params: IdParams,
      response: { 204: noContent(), ...refusals },
    }),
    async (request, reply) => {
      await onReply(request.params.id, request.actor!, { type: 'DeleteReply', data: {} });
      return reply.status(204).send();
    },
  );
  app.get(
    '/api/replies/:id/revisions',
    route('signed-in', "A reply's texts, newest first: the one shown, then each earlier one (its author and staff)", {
      params: IdParams,
      response: { 200: v.array(ReplyRevisionSchema), 403: ErrorSchema, 404: ErrorSchema },
    }),
    async (request) => {
      const reply = await visibleReply(request.params.id);
      if (!canSeeRevisions(request.actor!, reply.authorId)) throw fail.forbidden('Only its author and staff see earlier texts of a reply');
      return discussions.replyRevisions(reply);
    },
  );
  app.post(
    '/api/replies/:id/report',
    route('signed-in', 'Report a reply to the moderators', {
      params: IdParams,
      body: ReasonSchema,
      response: { 200: ReplySchema, ...refusals },
    }),
    async (request) => onReply(request.params.id, request.actor!, { type: 'ReportReply', data: { reason: request.body?.reason } }),
  );
}
