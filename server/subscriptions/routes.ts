/**
 * E-mail subscriptions (docs/domain/subscriptions.md): a
 * member's own subscriptions, a guest's double opt-in, the links in mails
 * (confirm, unsubscribe lookup, unsubscribe including RFC 8058 one-click) and the
 * consent record staff look up per address. Mail itself is sent by the workers,
 * from the events these calls record.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { DomainError, fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { EmailSchema } from '../../shared/members/schemas';
import { text } from '../../shared/text-schema';
import { SUBSCRIPTION_TYPE_LABELS, TOKEN_NOT_FOUND, type KnownSubscriptionType, type SubscriptionType } from '../../shared/subscriptions/constants';
import { GuestSubscribeSchema, NewSubscriptionSchema, SubscriptionUpdateSchema, TokenSchema, type UnsubscribeLookup } from '../../shared/subscriptions/schemas';
import { subscriptionDecider, type SubscriptionCommand } from '../../shared/subscriptions/subscription-stream';
import { membersCollection } from '../../projections/members/members';
import { subscriptionsCollection, type SubscriptionDocument } from '../../projections/subscriptions/subscriptions';
import { parse } from '../http/errors';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { hashSubscriptionToken, subscriptionToken } from '../../platform/mail/link-tokens';
import { confirmationPage, linkNotFoundPage, prefersHtml, unsubscribedPage } from './link-pages';

export const GUEST_SUBSCRIBE_MESSAGE = 'Check your inbox to confirm your subscription.';
export const DUPLICATE_SUBSCRIPTION = 'You already have a subscription of this type';
/** A guest may ask again for a confirmation mail after this long (the first may have been lost); sooner, the request changes nothing. */
export const GUEST_REPEAT_AFTER_MS = 15 * 60 * 1000;
/** Where a confirmation ends (a client page); `?error=link` or `?error=ended` when it could not confirm. */
export const CONFIRMED_PAGE = '/subscribe/confirmed';
/** The page a confirmation mail links to (followed by the token): it confirms by POST when the visitor asks. */
export const CONFIRM_PAGE = '/subscribe/confirm';

const IdParams = v.object({ id: text() });
const TokenParams = v.object({ token: text() });
const ConsentQuery = v.object({ email: EmailSchema, ...pageQuery(50) });
/** A member has at most one live subscription per type, so one page holds them all unless asked for less. */
const OwnQuery = v.object(pageQuery(20));
/** What arrives at the unsubscribe POST: nothing or `{}` from the page, `List-Unsubscribe=One-Click` from a mail provider. */
const UnsubscribeBody = v.nullish(v.looseObject({ 'List-Unsubscribe': v.optional(v.unknown()) }));
const ONE_CLICK_BODY_LIMIT = 16 * 1024;
const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu;

/** Every subscription id is a UUID, so anything else names a subscription that does not exist. */
function subscriptionIdOf(params: unknown): string {
  const { id } = parse(IdParams, params);
  if (!UUID.test(id)) throw fail.notFound('Subscription not found');
  return id;
}

/** A subscription (docs/domain/subscriptions.md#member-subscriptions), as the settings page reads it. */
export function subscriptionDto(subscription: SubscriptionDocument) {
  const { _id: id, email, subscriptionType, frequency, isActive, status, createdAt } = subscription;
  return { id, email, subscriptionType, frequency, isActive, status, createdAt };
}

/** One subscription in the staff consent record: everything but the token hash. */
export function consentRecordDto(subscription: SubscriptionDocument) {
  const { _id: id, _position, tokenHash, ...fields } = subscription;
  return { id, ...fields };
}

/** The types one subscription's mail covers, as the unsubscribe page lists them: `all` is the blog and the newsfeed. */
export function coveredTypes(type: SubscriptionType): KnownSubscriptionType[] {
  return type === 'all' ? ['blog_posts', 'newsfeed'] : [type];
}

export function unsubscribeLookup(subscription: SubscriptionDocument): Exclude<UnsubscribeLookup, { error: string }> {
  const { email, memberId, subscriptionType, frequency, status } = subscription;
  return {
    alreadyUnsubscribed: status === 'unsubscribed',
    subscription: { email, type: memberId ? 'user' : 'guest', subscriptionTypes: coveredTypes(subscriptionType), subscriptionType, frequency },
  };
}

/**
 * Whether a guest's request should start a new subscription, given the address's
 * live ones of that type: not when it already gets this mail (as a guest or a
 * member), nor when it asked minutes ago (a double submit, or someone filling a
 * stranger's inbox with confirmation mails). An older unconfirmed request may be
 * repeated, since its mail may have been lost.
 */
export function guestRequestNeeded(live: readonly SubscriptionDocument[], now: Date): boolean {
  return live.every((subscription) => subscription.status === 'pending' && now.getTime() - Date.parse(subscription.createdAt) >= GUEST_REPEAT_AFTER_MS);
}

/** A one-click unsubscribe is a mail provider's POST (RFC 8058); anything else came from the link's page. */
export function unsubscribeVia(body: v.InferOutput<typeof UnsubscribeBody>): 'link' | 'one_click' {
  return body?.['List-Unsubscribe'] === 'One-Click' ? 'one_click' : 'link';
}

/** Runs `work` for one key after the previous work for that key finished, within this process. */
function serialisePerKey() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

export async function subscriptionRoutes(app: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> }) {
  const { config } = services;
  const subscriptions = subscriptionsCollection(services.store);
  const members = membersCollection(services.store);
  const perMember = serialisePerKey();
  const authLimit = { max: config.rateLimits.auth, timeWindow: '1 minute' };
  const tokenHashOf = (id: string) => hashSubscriptionToken(subscriptionToken(config.subscriptionLinkSecret, id));

  function command(id: string, actor: Actor | null, type: SubscriptionCommand['type'], data: Record<string, unknown>) {
    const metadata = { now: services.now(), actor };
    return services.handle(subscriptionDecider, streamName('subscription', id), { type, data, metadata } as SubscriptionCommand, actor ? { actorId: actor.id } : {});
  }

  async function subscriptionOrFail(id: string) {
    const subscription = await subscriptions.findOne({ _id: id });
    if (!subscription) throw fail.notFound('Subscription not found');
    return subscription;
  }

  /** A member's subscription; staff may not change others' either, since consent belongs to the recipient. */
  async function ownSubscription(params: unknown, actor: Actor) {
    const subscription = await subscriptionOrFail(subscriptionIdOf(params));
    if (subscription.memberId !== actor.id) throw fail.forbidden('You can only change your own subscriptions');
    return subscription;
  }

  /** The subscription a link's token belongs to; null for a malformed or unknown token, without a store lookup for the former. */
  async function subscriptionOfToken(params: unknown) {
    const token = v.safeParse(TokenSchema, parse(TokenParams, params).token);
    if (!token.success) return null;
    const tokenHash = hashSubscriptionToken(token.output);
    const subscription = await subscriptions.findOne({ tokenHash });
    return subscription && { subscription, tokenHash };
  }

  const tokenNotFound = (reply: FastifyReply) => reply.status(404).send({ error: TOKEN_NOT_FOUND });

  // RFC 8058 says one-click POSTs SHOULD be multipart/form-data (url-encoded is also
  // allowed, and @fastify/formbody reads that). Only the routes of this plugin get this parser.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT }, async (request: FastifyRequest, body: string) => {
    try {
      const form = await new Response(body, { headers: { 'content-type': request.headers['content-type']! } }).formData();
      return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    } catch {
      throw fail.invalid('Unreadable form');
    }
  });

  app.get('/api/subscriptions', { config: { access: 'signed-in' } }, async (request) => {
    const query = parse(OwnQuery, request.query);
    return mapPage(await findPage(subscriptions, { memberId: request.actor!.id, status: { $ne: 'unsubscribed' } }, { createdAt: 1, _id: 1 }, query), subscriptionDto);
  });

  app.post('/api/subscriptions', { config: { access: 'signed-in' } }, async (request, reply) => {
    const actor = request.actor!;
    const body = parse(NewSubscriptionSchema, request.body);
    const member = await members.findOne({ _id: actor.id });
    if (!member) throw fail.notFound('Member not found');
    // One live subscription per member and type, checked on the read model. A member's
    // creates are serialised in this process (a double-clicked Save), and the command
    // waits for the read model, so only simultaneous requests to two API processes
    // could both pass; the cost would be a duplicate the member can delete.
    const id = await perMember(actor.id, async () => {
      if (await subscriptions.findOne({ memberId: actor.id, subscriptionType: body.subscriptionType, status: { $ne: 'unsubscribed' } })) {
        throw fail.conflict(DUPLICATE_SUBSCRIPTION);
      }
      const newId = randomUUID();
      await command(newId, actor, 'RequestSubscription', { id: newId, email: member.email, ...body, tokenHash: tokenHashOf(newId) });
      return newId;
    });
    return reply.status(201).send(subscriptionDto(await subscriptionOrFail(id)));
  });

  app.put('/api/subscriptions/:id', { config: { access: 'signed-in' } }, async (request) => {
    const subscription = await ownSubscription(request.params, request.actor!);
    const changes = parse(SubscriptionUpdateSchema, request.body);
    await command(subscription._id, request.actor, 'UpdateSubscription', changes);
    return subscriptionDto(await subscriptionOrFail(subscription._id));
  });

  app.delete('/api/subscriptions/:id', { config: { access: 'signed-in' } }, async (request, reply) => {
    const subscription = await ownSubscription(request.params, request.actor!);
    await command(subscription._id, request.actor, 'Unsubscribe', { via: 'settings' });
    return reply.status(204).send();
  });

  // The answer never depends on the address (no account enumeration), and the limit
  // keeps anyone from mailing confirmation links to a list of strangers.
  app.post('/api/subscribe', { config: { access: 'public', rateLimit: authLimit } }, async (request, reply) => {
    const { email, subscriptionType, frequency } = parse(GuestSubscribeSchema, request.body);
    const live = await subscriptions.find({ email, subscriptionType, status: { $ne: 'unsubscribed' } });
    if (guestRequestNeeded(live, services.now())) {
      const id = randomUUID();
      // No actor: the decider records it as needing confirmation, and nothing but the confirmation link is mailed before that.
      await command(id, null, 'RequestSubscription', { id, email, subscriptionType, frequency, tokenHash: tokenHashOf(id) });
    }
    return reply.status(202).send({ message: GUEST_SUBSCRIBE_MESSAGE });
  });

  // Mail scanners open links to check them, so opening the link changes nothing: it leads to a page whose
  // button (or, without JavaScript, whose form) confirms by POST. Links mailed before that lead there too.
  app.get('/api/subscribe/confirm/:token', { config: { access: 'public' } }, async (request, reply) => {
    const { token } = parse(TokenParams, request.params);
    return reply.redirect(v.is(TokenSchema, token) ? `${CONFIRM_PAGE}/${token}` : `${CONFIRMED_PAGE}?error=link`);
  });

  /** Confirms the subscription of a link; what the visitor is told otherwise. */
  async function confirm(params: unknown): Promise<'confirmed' | 'link' | 'ended'> {
    const found = await subscriptionOfToken(params);
    if (!found) return 'link';
    if (found.subscription.status === 'unsubscribed') return 'ended';
    try {
      await command(found.subscription._id, null, 'ConfirmSubscription', { tokenHash: found.tokenHash });
      return 'confirmed';
    } catch (error) {
      // The stream may be ahead of the read model (unsubscribed a moment ago).
      if (error instanceof DomainError && error.code === 'rule') return 'ended';
      if (error instanceof DomainError && error.code === 'not_found') return 'link';
      throw error;
    }
  }

  app.post('/api/subscribe/confirm/:token', { config: { access: 'public', rateLimit: authLimit } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const outcome = await confirm(request.params);
    // The page's form without JavaScript gets a page of its own, as the unsubscribe form does.
    if (prefersHtml(request.headers.accept)) return reply.status(outcome === 'link' ? 404 : outcome === 'ended' ? 409 : 200).type('text/html; charset=utf-8').send(confirmationPage(outcome));
    if (outcome === 'link') return reply.status(404).send({ error: TOKEN_NOT_FOUND, message: 'This confirmation link is invalid or has expired' });
    if (outcome === 'ended') return reply.status(409).send({ message: 'This subscription has ended. Subscribe again to receive e-mails.' });
    return { success: true };
  });

  // No rate limit on the token routes: a mail provider sends many one-click POSTs from
  // one address, and the 256-bit token cannot be guessed.
  app.get('/api/unsubscribe/:token', { config: { access: 'public' } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const found = await subscriptionOfToken(request.params);
    if (!found) return tokenNotFound(reply);
    return unsubscribeLookup(found.subscription);
  });

  // The token is the only authority here, and RFC 8058 one-click POSTs come from mail
  // providers without a cookie or an Origin header: exempt from the same-origin check.
  app.post('/api/unsubscribe/:token', { config: { access: 'public', allowCrossSite: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const html = prefersHtml(request.headers.accept);
    const found = await subscriptionOfToken(request.params);
    if (!found) return html ? reply.status(404).type('text/html; charset=utf-8').send(linkNotFoundPage()) : tokenNotFound(reply);
    const { subscription, tokenHash } = found;
    const via = unsubscribeVia(parse(UnsubscribeBody, request.body));
    const { events } = await command(subscription._id, null, 'Unsubscribe', { via, tokenHash });
    // The decider records nothing for a subscription that had already ended.
    const alreadyUnsubscribed = events.length === 0;
    if (html) return reply.type('text/html; charset=utf-8').send(unsubscribedPage(subscription.email, SUBSCRIPTION_TYPE_LABELS[subscription.subscriptionType], alreadyUnsubscribed));
    return { success: true, alreadyUnsubscribed };
  });

  app.get('/api/admin/subscriptions', { config: { access: STAFF } }, async (request) => {
    // Addresses are stored lower-case (EmailSchema, and member accounts), so this exact match is case-insensitive.
    const query = parse(ConsentQuery, request.query);
    return mapPage(await findPage(subscriptions, { email: query.email }, { createdAt: -1, _id: 1 }, query), consentRecordDto);
  });
}
