/**
 * The inbound role (docs/domain/discussions-mail.md#reply-by-mail): an SMTP listener that takes a watcher's answer to a
 * discussion mail and posts it as that member, through the same command a browser's reply goes through.
 *
 * It accepts mail only to `reply+{token}@REPLY_DOMAIN` with a known reply token (at RCPT: 550 otherwise). After DATA
 * it checks that the mail is no larger than INBOUND_MAX_BYTES, that it is not an automatic reply, that its From is the
 * token's member's own address (in any case), that the member may still write and has not posted too many replies by
 * mail this hour, and that what is left once quotes and signature are stripped is not empty; the command then refuses
 * a locked topic. Every refusal is an SMTP rejection with a short human message (the sender's server turns it into a
 * bounce), and nothing is posted. Tokens and reply addresses are never logged.
 */
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { DocumentStore } from '../../platform/document-store/port';
import type { Logger } from '../../platform/logger';
import { replyAddressToken, resolveReplyToken } from '../../platform/mail/reply-tokens';
import { DomainError } from '../../shared/domain';
import { htmlReplyToText, replyTextToHtml, stripReplyText } from '../../shared/discussions/reply-text';
import { membersCollection } from '../../projections/members';

export interface InboundOptions {
  store: DocumentStore;
  redis: Redis;
  redisPrefix: string;
  logger: Logger;
  host: string;
  port: number;
  replyDomain: string;
  maxBytes: number;
  /** Replies one member may post by mail in an hour. */
  repliesPerHour: number;
  /** Posts the reply as the member, through the command the API's reply route runs (server/discussions/commands.ts). */
  postReply(memberId: string, topicId: string, reply: { content: string }): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** An SMTP refusal: smtp-server answers the error's responseCode and message. */
class SmtpRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

const HOUR_MS = 3_600_000;

/** An automatic answer (out of office, a bounce, a list's mail), which must not become a reply (RFC 3834). */
function isAutomatic(headers: { key: string; value: string }[]): boolean {
  const value = (name: string) =>
    headers
      .find((header) => header.key === name)
      ?.value.trim()
      .toLowerCase();
  const autoSubmitted = value('auto-submitted');
  if (autoSubmitted && autoSubmitted !== 'no') return true;
  if (['bulk', 'junk', 'list', 'auto_reply'].includes(value('precedence') ?? '')) return true;
  return headers.some((header) => header.key === 'x-autoreply' || header.key === 'x-autorespond');
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startInbound(options: InboundOptions) {
  const { store, redis, logger, replyDomain } = options;
  /** The member and topic of the reply address given at RCPT, per connection (one transaction at a time). */
  const bound = new Map<string, { memberId: string; topicId: string }>();

  /** The member's replies posted by mail this hour are counted here: only posted ones, so refusals cost nothing. */
  const hourKey = (memberId: string) => `${options.redisPrefix}:mail-replies:${memberId}:${Math.floor(Date.now() / HOUR_MS)}`;
  const withinLimit = async (memberId: string) => Number((await redis.get(hourKey(memberId))) ?? 0) < options.repliesPerHour;
  async function countReply(memberId: string) {
    const key = hourKey(memberId);
    await redis.multi().incr(key).pexpire(key, HOUR_MS).exec();
  }

  async function receive(raw: Buffer, session: SMTPServerSession, tooLarge: boolean): Promise<void> {
    const target = bound.get(session.id);
    if (!target) throw new SmtpRefusal(503, 'No reply address was given');
    if (tooLarge) throw new SmtpRefusal(552, `Your message is larger than ${Math.floor(options.maxBytes / 1024)} KB`);
    const mail = await PostalMime.parse(raw);
    if (isAutomatic(mail.headers)) throw new SmtpRefusal(550, 'Automatic replies are not posted to discussions');
    const member = await membersCollection(store).findOne({ _id: target.memberId });
    const from = mail.from?.address?.trim().toLowerCase() ?? '';
    if (!member || member.suspended) throw new SmtpRefusal(550, 'This reply address can no longer be used');
    if (from === '' || from !== member.email.toLowerCase())
      throw new SmtpRefusal(550, 'Replies are taken only from the address the discussion mail was sent to');
    // A mail of HTML alone (some webmail and phones send no text part) is read from its HTML.
    const text = stripReplyText(mail.text?.trim() ? mail.text : htmlReplyToText(mail.html ?? ''));
    if (text === '') throw new SmtpRefusal(550, 'Your reply was empty once the quoted message and signature were removed');
    if (!(await withinLimit(member._id))) throw new SmtpRefusal(451, 'Too many replies by mail this hour; please try again later');
    let posted;
    try {
      posted = await options.postReply(member._id, target.topicId, { content: replyTextToHtml(text) });
    } catch (error) {
      if (error instanceof DomainError) throw new SmtpRefusal(550, error.message);
      throw error;
    }
    // A locked or removed topic, a member who may no longer write: the command's own words.
    if (!posted.ok) throw new SmtpRefusal(550, posted.message);
    await countReply(member._id);
    logger.info({ memberId: member._id, topicId: target.topicId }, 'reply by mail posted');
  }

  const server = new SMTPServer({
    name: replyDomain,
    banner: 'Broadcast History Community: replies to discussion mail',
    authOptional: true,
    // No TLS certificate of its own here: a relay or the MX host in front does TLS (docs/operations.md#inbound-mail).
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: options.maxBytes,
    logger: false,
    onMailFrom(_address, session, callback) {
      bound.delete(session.id);
      callback();
    },
    onRcptTo(address, session, callback) {
      const token = replyAddressToken(address.address, replyDomain);
      if (!token) return callback(new SmtpRefusal(550, 'No such recipient: replies go to the address the discussion mail gave'));
      resolveReplyToken(store, 'reply', token).then(
        (target) => {
          if (!target) return callback(new SmtpRefusal(550, 'This reply address is unknown'));
          const earlier = bound.get(session.id);
          if (earlier && (earlier.memberId !== target.memberId || earlier.topicId !== target.topicId))
            return callback(new SmtpRefusal(452, 'One reply address per message'));
          bound.set(session.id, target);
          callback();
        },
        (error: unknown) => {
          logger.error({ err: error }, 'could not look up a reply address');
          callback(new SmtpRefusal(451, 'Please try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      readAll(stream)
        .then((raw) => receive(raw, session, stream.sizeExceeded))
        .then(
          () => callback(),
          (error: unknown) => {
            if (error instanceof SmtpRefusal) return callback(error);
            logger.error({ err: error }, 'could not take a reply by mail');
            callback(new SmtpRefusal(451, 'Please try again later'));
          },
        )
        .finally(() => bound.delete(session.id));
    },
    onClose(session) {
      bound.delete(session.id);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // smtp-server reports a sender's dropped connection as an 'error' event; unheard, it would end the process.
  server.on('error', () => {});
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
