/**
 * The inbound role (ROLES=inbound): the SMTP listener that posts replies to discussion mail
 * (server/mail-replies/inbound.ts), wired to the discussions' own command for posting a reply as a member.
 */
import type { Logger } from '../platform/logger';
import type { Services } from './services';
import { startInbound } from '../server/mail-replies/inbound';
import { postReply } from '../server/discussions/commands';

export function startInboundRole(services: Services, logger: Logger) {
  const { config } = services;
  return startInbound({
    store: services.store,
    redis: services.redis,
    redisPrefix: config.redisPrefix,
    logger,
    host: config.host,
    port: config.inbound.port,
    replyDomain: config.inbound.replyDomain,
    maxBytes: config.inbound.maxBytes,
    repliesPerHour: config.rateLimits.mailReplies,
    postReply: (memberId, topicId, reply) => postReply(services, memberId, topicId, reply, 'email'),
  });
}
