/**
 * The RFC 8058 one-click unsubscribe of discussion mail (docs/domain/discussions-mail.md#mail-to-watchers): a mail
 * provider POSTs to the address in the mail's List-Unsubscribe header, without a session, and the token's member
 * stops watching that topic (muted), as if they had chosen it on the topic's page.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { streamName } from '../../shared/streams';
import { text } from '../../shared/text-schema';
import { readingDecider, readingStreamId } from '../../shared/discussions/reading-stream';
import { resolveReplyToken } from '../../platform/mail/reply-tokens';
import { ErrorSchema, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { ApiDependencies } from '../dependencies';
import { memberActor } from '../members/actor';

const TokenParams = v.object({ token: text() });
/** Nothing, `{}`, or `List-Unsubscribe=One-Click` from a mail provider. */
const OneClickBody = v.nullish(v.looseObject({ 'List-Unsubscribe': v.optional(v.unknown()) }));
const MutedSchema = v.object({ success: v.literal(true), topicId: v.string(), level: v.literal('muted') });

export async function mailReplyRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  // The token is the only authority, and one-click POSTs come from mail providers without a cookie or an Origin
  // header: exempt from the same-origin check, and not rate-limited (a provider sends many; 256 bits are not guessed).
  const route = routeOptions(['discussions']);
  app.post(
    '/api/discussions/unsubscribe/:token',
    route(
      'public',
      'Stop watching a topic by the token of a discussion mail (RFC 8058 one-click unsubscribe)',
      { params: TokenParams, body: OneClickBody, response: { 200: MutedSchema, 404: ErrorSchema } },
      { allowCrossSite: true },
    ),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const bound = await resolveReplyToken(services.store, 'unsubscribe', request.params.token);
      const actor = bound && (await memberActor(services, bound.memberId));
      if (!bound || !actor) return reply.status(404).send({ message: 'This unsubscribe link is unknown' });
      const { topicId, memberId } = bound;
      await services.handle(
        readingDecider,
        streamName('reading', readingStreamId(topicId, memberId)),
        { type: 'WatchTopic', data: { topicId, memberId, level: 'muted' }, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
      return { success: true as const, topicId, level: 'muted' as const };
    },
  );
}
