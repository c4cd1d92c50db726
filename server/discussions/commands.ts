/**
 * Discussions' commands as the server runs them, for the routes and for other entry points: `postReply` is what the
 * inbound mail calls to post a mailed reply as the member who sent it. Each decides on its stream through the command
 * handler (read-your-writes) and answers the read model's document.
 */
import { randomUUID } from 'node:crypto';
import { type Actor, DomainError, type ErrorCode, fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { htmlToText } from '../../shared/blog/excerpt';
import { replyDecider, type ReplyCommand } from '../../shared/discussions/reply-stream';
import { lockedRefusal } from '../../shared/discussions/rules';
import { topicDecider, type TopicCommand } from '../../shared/discussions/topic-stream';
import { readingDecider, readingStreamId, type ReadingCommand } from '../../shared/discussions/reading-stream';
import type { Reply } from '../../shared/discussions/schemas';
import type { Intent } from '../../platform/command-handler';
import { findReply, replyDto, visibleTopic } from '../../projections/discussions';
import { memberActor } from '../members/actor';
import { membersCollection } from '../../projections/members';
import { displayName } from '../../shared/members/display';
import { resolveMentions } from '../members/directory';
import type { ApiDependencies } from '../dependencies';
import { discussionHtml } from './content';

export type DiscussionServices = Pick<ApiDependencies, 'store' | 'handle' | 'now'>;

const metadata = (services: DiscussionServices, actor: Actor) => ({ now: services.now(), actor });

export function decideTopic(services: DiscussionServices, id: string, actor: Actor, intent: Intent<TopicCommand>) {
  return services.handle(topicDecider, streamName('topic', id), { ...intent, metadata: metadata(services, actor) }, { actorId: actor.id });
}
export function decideReply(services: DiscussionServices, id: string, actor: Actor, intent: Intent<ReplyCommand>) {
  return services.handle(replyDecider, streamName('reply', id), { ...intent, metadata: metadata(services, actor) }, { actorId: actor.id });
}
export function decideReading(services: DiscussionServices, topicId: string, actor: Actor, intent: Intent<ReadingCommand>) {
  return services.handle(
    readingDecider,
    streamName('reading', readingStreamId(topicId, actor.id)),
    { ...intent, metadata: metadata(services, actor) },
    { actorId: actor.id },
  );
}

/** The members a text names with `@First Last` (its plain words), never its author. */
export const mentionsIn = (services: DiscussionServices, html: string, authorId: string) =>
  resolveMentions(services.store, htmlToText(html), authorId);

/**
 * Posts a reply in a topic as `actor` (route and mail alike): the topic must be one members see, a quoted reply must
 * be in it, a locked topic refuses (409). Throws the DomainError of a refusal; answers the reply as now stored.
 */
export async function replyAs(
  services: DiscussionServices,
  actor: Actor,
  topicId: string,
  body: { content: string; replyTo?: string | null | undefined },
  via: 'web' | 'email' = 'web',
): Promise<Reply> {
  const topic = await visibleTopic(services.store, topicId.toLowerCase());
  if (!topic) throw fail.notFound('Topic not found');
  let replyTo = null;
  if (body.replyTo) {
    const quoted = await findReply(services.store, body.replyTo.toLowerCase());
    if (!quoted) throw fail.notFound('The reply answered was not found');
    replyTo = { id: quoted._id, topicId: quoted.topicId, deleted: quoted.deleted };
  }
  const content = discussionHtml(body.content);
  const id = randomUUID();
  const mentions = await mentionsIn(services, content, actor.id);
  const { events } = await decideReply(services, id, actor, {
    type: 'PostReply',
    data: { id, topic: { id: topic._id, locked: topic.locked }, replyTo, content, mentions, via },
  });
  const stored = await findReply(services.store, id);
  if (stored) return replyDto(services.store, stored);
  // The read models fell behind read-your-writes' wait: answered from the event itself.
  const posted = events.find((event) => event.type === 'ReplyPosted');
  if (!posted) throw fail.notFound('Reply not found');
  const member = await membersCollection(services.store).findOne({ _id: actor.id });
  return {
    id,
    topicId: topic._id,
    number: topic.lastNumber + 1,
    replyTo: null,
    author: {
      id: actor.id,
      name: member ? displayName(member) : 'Former member',
      avatar: member?.profileImageUrl ?? null,
      role: actor.role,
    },
    content: posted.data.content,
    createdAt: posted.data.at,
    editedAt: null,
    edits: 0,
    deleted: false,
    via,
  };
}

/** Why a reply was not posted, for a caller that answers in its own terms (an SMTP rejection, a bounce). */
export type ReplyRefusal = {
  ok: false;
  /** not_found: no such topic (or quoted reply); locked: the topic takes no replies; forbidden: not a member who may write (suspended, erased, subscriber); invalid: empty or too long. */
  refusal: 'not_found' | 'locked' | 'forbidden' | 'invalid' | 'rule' | 'conflict';
  message: string;
};
export type ReplyPosting = { ok: true; reply: Reply } | ReplyRefusal;

const REFUSALS: Partial<Record<ErrorCode, ReplyRefusal['refusal']>> = {
  not_found: 'not_found',
  forbidden: 'forbidden',
  unauthenticated: 'forbidden',
  invalid: 'invalid',
  rule: 'rule',
};

/**
 * The entry point for replies that do not come through HTTP (the inbound mail): posts `content` (plain text or HTML,
 * sanitised here) in the topic as the member, if they may write now (not suspended, not a subscriber). Never throws a
 * refusal: answers it, typed.
 */
export async function postReply(
  services: DiscussionServices,
  memberId: string,
  topicId: string,
  body: { content: string; replyTo?: string | null | undefined },
  via: 'web' | 'email' = 'email',
): Promise<ReplyPosting> {
  const actor = await memberActor(services, memberId);
  if (!actor) return { ok: false, refusal: 'forbidden', message: 'No member may write as this sender' };
  try {
    return { ok: true, reply: await replyAs(services, actor, topicId, body, via) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const refusal = error.message === lockedRefusal(true)?.message ? 'locked' : (REFUSALS[error.code] ?? 'conflict');
    return { ok: false, refusal, message: error.message };
  }
}
