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
import {
  SUBSCRIPTION_TYPE_LABELS,
  TOKEN_NOT_FOUND,
  type KnownSubscriptionType,
  type SubscriptionType,
} from '../../shared/subscriptions/constants';
import {
  ConfirmedSchema,
  ConsentRecordSchema,
  GuestSubscribeSchema,
  NewSubscriptionSchema,
  SubscriptionSchema,
  SubscriptionUpdateSchema,
  TokenNotFoundSchema,
  TokenSchema,
  UnsubscribedSchema,
  UnsubscribeLookupSchema,
  type ConsentRecord,
  type NewSubscription,
  type Subscription,
  type UnsubscribeLookup,
} from '../../shared/subscriptions/schemas';
import { pageSchema } from '../../shared/page';
import { subscriptionDecider, type SubscriptionCommand } from '../../shared/subscriptions/subscription-stream';
import { membersCollection } from '../../projections/members';
import { subscriptionsCollection, type SubscriptionDocument } from '../../projections/subscriptions';
import { ErrorSchema, noContent, redirect, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { Intent } from '../../platform/command-handler';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import { hashSubscriptionToken, subscriptionToken } from '../../platform/mail/link-tokens';
import { confirmationPage, linkNotFoundPage, prefersHtml, unsubscribedPage } from './link-pages';
import { knownId } from '../http/ids';

export const GUEST_SUBSCRIBE_MESSAGE = 'Check your inbox to confirm your subscription.';
export const DUPLICATE_SUBSCRIPTION = 'You already have a subscription of this type';
export const MEMBER_SUBSCRIBED_MESSAGE = 'You are subscribed. Manage your e-mail in Subscription Settings.';
export const MEMBER_ALREADY_SUBSCRIBED_MESSAGE = 'You already get these updates. Manage your e-mail in Subscription Settings.';
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

const subscriptionIdOf = ({ id }: { id: string }) => knownId(id, 'Subscription not found');
const GuestSubscribedSchema = v.object({
  message: v.picklist([GUEST_SUBSCRIBE_MESSAGE, MEMBER_SUBSCRIBED_MESSAGE, MEMBER_ALREADY_SUBSCRIBED_MESSAGE]),
});
/** The link routes answer an HTML page to a browser's form (no JavaScript): documented by their JSON answers. */
const HTML_TOO = 'Answers an HTML page instead when the request prefers text/html (the page’s form without JavaScript).';

/** A subscription (docs/domain/subscriptions.md#member-subscriptions), as the settings page reads it. */
export function subscriptionDto(subscription: SubscriptionDocument): Subscription {
  const { _id: id, email, subscriptionType, frequency, isActive, status, createdAt } = subscription;
  return { id, email, subscriptionType, frequency, isActive, status, createdAt };
}

/** One subscription in the staff consent record: everything but the token hash. */
export function consentRecordDto(subscription: SubscriptionDocument): ConsentRecord {
  const { _id: id, _position, tokenHash, ...fields } = subscription;
  return { id, ...fields };
}

/** The types one subscription's mail covers, as the unsubscribe page lists them: `all` is the blog and the newsfeed. */
export function coveredTypes(type: SubscriptionType): KnownSubscriptionType[] {
  return type === 'all' ? ['blog_posts', 'newsfeed'] : [type];
}

export function unsubscribeLookup(subscription: SubscriptionDocument): UnsubscribeLookup {
  const { email, memberId, subscriptionType, frequency, status } = subscription;
  return {
    alreadyUnsubscribed: status === 'unsubscribed',
    subscription: {
      email,
      type: memberId ? 'user' : 'guest',
      subscriptionTypes: coveredTypes(subscriptionType),
      subscriptionType,
      frequency,
    },
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
  return live.every(
    (subscription) => subscription.status === 'pending' && now.getTime() - Date.parse(subscription.createdAt) >= GUEST_REPEAT_AFTER_MS,
  );
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

export async function subscriptionRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'now'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const route = routeOptions(['subscriptions']);
  /** What changing one's own subscription may meet: someone else's, none, a conflict, a rule. */
  const own = { 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema };
  const { config } = services;
  const subscriptions = subscriptionsCollection(services.store);
  const members = membersCollection(services.store);
  const perMember = serialisePerKey();
  const authLimit = { max: config.rateLimits.auth, timeWindow: '1 minute' };
  const tokenHashOf = (id: string) => hashSubscriptionToken(subscriptionToken(config.subscriptionLinkSecret, id));

  function command(id: string, actor: Actor | null, intent: Intent<SubscriptionCommand>) {
    return services.handle(
      subscriptionDecider,
      streamName('subscription', id),
      { ...intent, metadata: { now: services.now(), actor } },
      actor ? { actorId: actor.id } : {},
    );
  }

  async function subscriptionOrFail(id: string) {
    const subscription = await subscriptions.findOne({ _id: id });
    if (!subscription) throw fail.notFound('Subscription not found');
    return subscription;
  }

  /** A member's subscription; staff may not change others' either, since consent belongs to the recipient. */
  async function ownSubscription(params: { id: string }, actor: Actor) {
    const subscription = await subscriptionOrFail(subscriptionIdOf(params));
    if (subscription.memberId !== actor.id) throw fail.forbidden('You can only change your own subscriptions');
    return subscription;
  }

  /** The subscription a link's token belongs to; null for a malformed or unknown token, without a store lookup for the former. */
  async function subscriptionOfToken(params: { token: string }) {
    const token = v.safeParse(TokenSchema, params.token);
    if (!token.success) return null;
    const tokenHash = hashSubscriptionToken(token.output);
    const subscription = await subscriptions.findOne({ tokenHash });
    return subscription && { subscription, tokenHash };
  }

  const tokenNotFound = (reply: FastifyReply) => reply.status(404).send({ error: TOKEN_NOT_FOUND });
  /** A page for a browser's form (HTML_TOO): sent as it is, not through the route's JSON answers. */
  const sendPage = (reply: FastifyReply, html: string, status = 200) => reply.status(status).type('text/html; charset=utf-8').send(html);

  // RFC 8058 says one-click POSTs SHOULD be multipart/form-data (url-encoded is also
  // allowed, and @fastify/formbody reads that). Only the routes of this plugin get this parser.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT },
    async (request: FastifyRequest, body: string) => {
      try {
        const form = await new Response(body, { headers: { 'content-type': request.headers['content-type']! } }).formData();
        return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      } catch {
        throw fail.invalid('Unreadable form');
      }
    },
  );

  const liveSubscriptionOf = (memberId: string, subscriptionType: SubscriptionType) =>
    subscriptions.findOne({ memberId, subscriptionType, status: { $ne: 'unsubscribed' } });

  /**
   * The member's own subscription, active at once: they are signed in with that address. One live subscription per
   * member and type, checked on the read model. A member's creates are serialised in this process (a double-clicked
   * Save), and the command waits for the read model, so only simultaneous requests to two API processes could both
   * pass; the cost would be a duplicate the member can delete.
   */
  function subscribeMember(
    actor: Actor,
    email: string,
    choice: Omit<NewSubscription, 'isActive'> & Partial<Pick<NewSubscription, 'isActive'>>,
  ) {
    return perMember(actor.id, async () => {
      if (await liveSubscriptionOf(actor.id, choice.subscriptionType)) throw fail.conflict(DUPLICATE_SUBSCRIPTION);
      const id = randomUUID();
      await command(id, actor, { type: 'RequestSubscription', data: { id, email, ...choice, tokenHash: tokenHashOf(id) } });
      return id;
    });
  }

  app.get(
    '/api/subscriptions',
    route('signed-in', 'The member’s own live subscriptions', { querystring: OwnQuery, response: { 200: pageSchema(SubscriptionSchema) } }),
    async (request) =>
      mapPage(
        await findPage(
          subscriptions,
          { memberId: request.actor!.id, status: { $ne: 'unsubscribed' } },
          { createdAt: 1, _id: 1 },
          request.query,
        ),
        subscriptionDto,
      ),
  );

  app.post(
    '/api/subscriptions',
    route('signed-in', 'Subscribe the member’s own address; one live subscription per type', {
      body: NewSubscriptionSchema,
      response: { 201: SubscriptionSchema, ...own },
    }),
    async (request, reply) => {
      const actor = request.actor!;
      const { body } = request;
      const member = await members.findOne({ _id: actor.id });
      if (!member) throw fail.notFound('Member not found');
      const id = await subscribeMember(actor, member.email, body);
      return reply.status(201).send(subscriptionDto(await subscriptionOrFail(id)));
    },
  );

  app.put(
    '/api/subscriptions/:id',
    route('signed-in', 'Pause, resume or change the frequency of one’s own subscription', {
      params: IdParams,
      body: SubscriptionUpdateSchema,
      response: { 200: SubscriptionSchema, ...own },
    }),
    async (request) => {
      const subscription = await ownSubscription(request.params, request.actor!);
      await command(subscription._id, request.actor, { type: 'UpdateSubscription', data: request.body });
      return subscriptionDto(await subscriptionOrFail(subscription._id));
    },
  );

  app.delete(
    '/api/subscriptions/:id',
    route('signed-in', 'Unsubscribe one’s own subscription', { params: IdParams, response: { 204: noContent(), ...own } }),
    async (request, reply) => {
      const subscription = await ownSubscription(request.params, request.actor!);
      await command(subscription._id, request.actor, { type: 'Unsubscribe', data: { via: 'settings' } });
      return reply.status(204).send();
    },
  );

  // The answer never depends on the address (no account enumeration), and the limit
  // keeps anyone from mailing confirmation links to a list of strangers.
  app.post(
    '/api/subscribe',
    route(
      'public',
      'A guest subscribes; the address gets a confirmation link first (double opt-in)',
      { body: GuestSubscribeSchema, response: { 202: GuestSubscribedSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const { email, subscriptionType, frequency } = request.body;
      // A member who uses this form with their own address gets their account's subscription, not a second one as a
      // guest: it shows in Subscription Settings, and the answer says so. Any other address is a guest's, confirmed by mail.
      const member = request.actor && (await members.findOne({ _id: request.actor.id }));
      if (request.actor && member?.email === email) {
        if (await liveSubscriptionOf(member._id, subscriptionType))
          return reply.status(202).send({ message: MEMBER_ALREADY_SUBSCRIBED_MESSAGE });
        await subscribeMember(request.actor, email, { subscriptionType, frequency });
        return reply.status(202).send({ message: MEMBER_SUBSCRIBED_MESSAGE });
      }
      const live = await subscriptions.find({ email, subscriptionType, status: { $ne: 'unsubscribed' } });
      if (guestRequestNeeded(live, services.now())) {
        const id = randomUUID();
        // No actor: the decider records it as needing confirmation, and nothing but the confirmation link is mailed before that.
        await command(id, null, {
          type: 'RequestSubscription',
          data: { id, email, subscriptionType, frequency, tokenHash: tokenHashOf(id) },
        });
      }
      return reply.status(202).send({ message: GUEST_SUBSCRIBE_MESSAGE });
    },
  );

  // Mail scanners open links to check them, so opening the link changes nothing: it leads to a page whose
  // button (or, without JavaScript, whose form) confirms by POST. Links mailed before that lead there too.
  app.get(
    '/api/subscribe/confirm/:token',
    route('public', 'An old confirmation link: leads to the page that confirms by POST', {
      params: TokenParams,
      response: { 302: redirect('To the confirmation page, or to the confirmed page with ?error=link') },
    }),
    async (request, reply) => {
      const { token } = request.params;
      return reply.redirect(v.is(TokenSchema, token) ? `${CONFIRM_PAGE}/${token}` : `${CONFIRMED_PAGE}?error=link`);
    },
  );

  /** Confirms the subscription of a link; what the visitor is told otherwise. */
  async function confirm(params: { token: string }): Promise<'confirmed' | 'link' | 'ended'> {
    const found = await subscriptionOfToken(params);
    if (!found) return 'link';
    if (found.subscription.status === 'unsubscribed') return 'ended';
    try {
      await command(found.subscription._id, null, { type: 'ConfirmSubscription', data: { tokenHash: found.tokenHash } });
      return 'confirmed';
    } catch (error) {
      // The stream may be ahead of the read model (unsubscribed a moment ago).
      if (error instanceof DomainError && error.code === 'rule') return 'ended';
      if (error instanceof DomainError && error.code === 'not_found') return 'link';
      throw error;
    }
  }

  app.post(
    '/api/subscribe/confirm/:token',
    route(
      'public',
      'Confirm a guest’s subscription by its link’s token',
      { description: HTML_TOO, params: TokenParams, response: { 200: ConfirmedSchema, 404: TokenNotFoundSchema, 409: ErrorSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const outcome = await confirm(request.params);
      // The page's form without JavaScript gets a page of its own, as the unsubscribe form does.
      if (prefersHtml(request.headers.accept))
        return sendPage(reply, confirmationPage(outcome), outcome === 'link' ? 404 : outcome === 'ended' ? 409 : 200);
      if (outcome === 'link')
        return reply.status(404).send({ error: TOKEN_NOT_FOUND, message: 'This confirmation link is invalid or has expired' });
      if (outcome === 'ended')
        return reply.status(409).send({ message: 'This subscription has ended. Subscribe again to receive e-mails.' });
      return { success: true } as const;
    },
  );

  // No rate limit on the token routes: a mail provider sends many one-click POSTs from
  // one address, and the 256-bit token cannot be guessed.
  app.get(
    '/api/unsubscribe/:token',
    route('public', 'What an unsubscribe link’s page shows', {
      params: TokenParams,
      response: { 200: UnsubscribeLookupSchema, 404: TokenNotFoundSchema },
    }),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const found = await subscriptionOfToken(request.params);
      if (!found) return tokenNotFound(reply);
      return unsubscribeLookup(found.subscription);
    },
  );

  // The token is the only authority here, and RFC 8058 one-click POSTs come from mail
  // providers without a cookie or an Origin header: exempt from the same-origin check.
  app.post(
    '/api/unsubscribe/:token',
    route(
      'public',
      'Unsubscribe by a link’s token, from its page or as an RFC 8058 one-click POST',
      {
        description: HTML_TOO,
        params: TokenParams,
        body: UnsubscribeBody,
        response: { 200: UnsubscribedSchema, 404: TokenNotFoundSchema },
      },
      { allowCrossSite: true },
    ),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const html = prefersHtml(request.headers.accept);
      const found = await subscriptionOfToken(request.params);
      if (!found) return html ? sendPage(reply, linkNotFoundPage(), 404) : tokenNotFound(reply);
      const { subscription, tokenHash } = found;
      const via = unsubscribeVia(request.body);
      const { events } = await command(subscription._id, null, { type: 'Unsubscribe', data: { via, tokenHash } });
      // The decider records nothing for a subscription that had already ended.
      const alreadyUnsubscribed = events.length === 0;
      if (html)
        return sendPage(
          reply,
          unsubscribedPage(subscription.email, SUBSCRIPTION_TYPE_LABELS[subscription.subscriptionType], alreadyUnsubscribed),
        );
      return { success: true as const, alreadyUnsubscribed };
    },
  );

  app.get(
    '/api/admin/subscriptions',
    route(STAFF, 'The consent record of one address', { querystring: ConsentQuery, response: { 200: pageSchema(ConsentRecordSchema) } }),
    async (request) => {
      // Addresses are stored lower-case (EmailSchema, and member accounts), so this exact match is case-insensitive.
      const { query } = request;
      return mapPage(await findPage(subscriptions, { email: query.email }, { createdAt: -1, _id: 1 }, query), consentRecordDto);
    },
  );
}
