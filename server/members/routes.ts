/**
 * Accounts and sessions (docs/domain/members.md) and member management
 * for staff (docs/domain/members.md#user-list).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { DomainError, fail, ROLES, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { memberDecider, type MemberCommand } from '../../shared/members/member-stream';
import {
  LoginSchema,
  MagicLinkSchema,
  MemberRowSchema,
  PRESENCE_STATUSES,
  REGISTRATION_REQUESTED_MESSAGE,
  RegisterSchema,
  RegistrationRequestedSchema,
  RoleChangeSchema,
  SessionSchema,
  SignInLinkRequestedSchema,
  UserSchema,
  type MemberRow,
  type User,
} from '../../shared/members/schemas';
import { pageSchema } from '../../shared/page';
import { displayName } from '../../shared/members/display';
import { text } from '../../shared/text-schema';
import { escapeRegex } from '../../shared/text';
import { WrongExpectedVersionError } from '../../platform/event-store/port';
import { credentialsCollection, membersCollection, postCountsByAuthor, type MemberDocument } from '../../projections/members';
import type { Filter, Sort } from '../../platform/document-store/port';
import type { Intent } from '../../platform/command-handler';
import { ErrorSchema, noContent, redirect, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { findPage, mapPage, pageQuery } from '../http/pagination';
import { ADMIN, STAFF } from '../http/access';
import type { MemberSessions } from '../http/session-store';
import type { ApiDependencies } from '../dependencies';
import type { PasswordWork } from './passwords';
import type { AddressLimits } from './address-limits';
import { createOneTimeLinks, hashToken } from './one-time-links';
import { registrationLinkMail, registrationTakenMail } from './registration-mail';
import { signInMail } from './sign-in-mail';
import { claimEmail } from './email-claims';
import { USER_AGENT_MAX_LENGTH } from './user-agent';
import { registeredAlreadyPage, registrationLinkPage, signInLinkPage, spentLinkPage, spentRegistrationLinkPage } from './sign-in-page';

export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;
/** A link to finish signing up: a day, as people read mail; Redis keeps the form (the password only as its scrypt hash) no longer. */
export const REGISTRATION_LINK_TTL_SECONDS = 24 * 3600;

/** What a registration link's token stands for, in Redis until it is used or expires. */
const PendingRegistrationSchema = v.object({ email: v.string(), firstName: v.string(), lastName: v.string(), passwordHash: v.string() });
type PendingRegistration = v.InferOutput<typeof PendingRegistrationSchema>;
function parsePending(subject: string | null): PendingRegistration | null {
  if (subject === null) return null;
  const parsed = v.safeParse(PendingRegistrationSchema, JSON.parse(subject));
  return parsed.success ? parsed.output : null;
}

export interface MemberRoutesOptions {
  services: Pick<ApiDependencies, 'store' | 'eventStore' | 'handle' | 'config' | 'redis' | 'mail' | 'presence' | 'now'>;
  memberSessions: MemberSessions;
  /** Ends a member's open sockets, on every API process (suspension, role change). */
  disconnectMember: (memberId: string) => Promise<void>;
  /** Password hashing, bounded for the whole process. */
  passwords: PasswordWork;
  addressLimits: AddressLimits;
}

export function userDto(member: MemberDocument): User {
  return {
    id: member._id,
    email: member.email,
    firstName: member.firstName,
    lastName: member.lastName,
    profileImageUrl: member.profileImageUrl,
    role: member.role,
    bio: member.bio ?? '',
  };
}

const IdParams = v.object({ id: v.pipe(text(), v.uuid('Unknown member')) });
const TokenParams = v.object({ token: text() });
const MembersQuery = v.object({
  ...pageQuery(50),
  /** Only members with an open socket now: the newsfeed marks who is online without paging through everyone. */
  online: v.optional(v.picklist(['true'], 'online must be true')),
  /** Words each found, any case, inside the first name, last name or e-mail address (docs/domain/members.md#user-list). */
  q: v.optional(v.pipe(text(), v.trim(), v.maxLength(100, 'Search at most 100 characters'))),
  role: v.optional(v.picklist(ROLES, `role must be one of ${ROLES.join(', ')}`)),
  /** Presence now, as the row's `status`. */
  status: v.optional(v.picklist(PRESENCE_STATUSES, `status must be one of ${PRESENCE_STATUSES.join(', ')}`)),
  suspended: v.optional(v.picklist(['true', 'false'], 'suspended must be true or false')),
});
type MembersQuery = v.InferOutput<typeof MembersQuery>;
/** Search words at most, so a pasted paragraph is not a query of a hundred conditions. */
const MEMBER_SEARCH_WORDS = 5;
const NEWEST_MEMBERS_FIRST: Sort = { registeredAt: -1, _id: -1 };

export async function memberRoutes(fastify: FastifyInstance, options: MemberRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const route = routeOptions(['members']);
  const { services, memberSessions, passwords, addressLimits } = options;
  const { store, eventStore, handle, config } = services;
  const members = membersCollection(store);
  const credentials = credentialsCollection(store);
  const signInLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'sign-in-link', SIGN_IN_LINK_TTL_SECONDS);
  const registrationLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'registration-link', REGISTRATION_LINK_TTL_SECONDS);

  const authLimit = { max: config.rateLimits.auth, timeWindow: '1 minute' };

  const metadataOf = (actor: Actor | null) => ({ now: services.now(), actor });
  /** Staff's decision on a member (their role, a suspension), recorded on the member's stream. */
  const decideOnMember = (id: string, actor: Actor, intent: Intent<MemberCommand>) =>
    handle(memberDecider, streamName('member', id), { ...intent, metadata: metadataOf(actor) }, { actorId: actor.id });
  /**
   * The address a link is to be mailed to, as accounts hold it; counted in its limit whether or not it has an account,
   * so the limit says nothing about that either.
   */
  async function mailLinkAddress(given: string) {
    const email = given.trim().toLowerCase();
    await addressLimits.take('mail-links', email);
    return email;
  }

  async function signIn(request: FastifyRequest, memberId: string) {
    await request.session.regenerate();
    request.session.memberId = memberId;
    request.session.signedInAt = Date.now();
    const userAgent = request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH);
    if (userAgent) request.session.userAgent = userAgent;
    await request.session.save();
  }

  async function memberOrFail(id: string) {
    const member = await members.findOne({ _id: id });
    if (!member) throw fail.notFound('Member not found');
    return member;
  }

  /** Claims a one-writer stream; returns the id already recorded there when someone claimed it first. */
  async function claim(stream: string, type: string, memberId: string): Promise<string> {
    try {
      await eventStore.append(stream, [{ type, data: { memberId } }], { expectedVersion: 'no_stream' });
      return memberId;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const [first] = await eventStore.readStream(stream);
      return (first?.data as { memberId: string }).memberId;
    }
  }

  app.get(
    '/api/login',
    route('public', 'The sign-in page’s old address: sends the browser to /login', {
      response: { 302: redirect('To the sign-in page, /login') },
    }),
    async (_request, reply) => reply.redirect('/login'),
  );

  /** A registration's mail still being decided and queued after its answer went: a closing site waits for it. */
  const registering = new Set<Promise<void>>();
  fastify.addHook('onClose', async () => {
    await Promise.allSettled([...registering]);
  });

  /** To a new address, the link that finishes signing up; to one with an account, a notice to its owner. */
  async function mailRegistration(pending: PendingRegistration) {
    const account = await credentials.findOne({ email: pending.email });
    const owner = account && (await members.findOne({ _id: account._id }));
    if (owner) {
      await services.mail.enqueue(
        `registration-taken:${randomUUID()}`,
        registrationTakenMail({
          to: owner.email,
          name: displayName(owner),
          signInLink: `${config.publicUrl}/login`,
          resetLink: `${config.publicUrl}/forgot-password`,
        }),
      );
      return;
    }
    const token = await registrationLinks.issue(JSON.stringify(pending), null);
    await services.mail.enqueue(
      `registration-link:${hashToken(token)}`,
      registrationLinkMail({ to: pending.email, link: `${config.publicUrl}/api/auth/register/confirm/${token}` }),
    );
  }

  app.post(
    '/api/auth/register',
    route(
      'public',
      'Ask to join: a link to finish signing up (valid 24 hours, works once) goes to the address; answers the same whether or not the address has an account (its owner is told by mail instead)',
      { body: RegisterSchema, response: { 202: RegistrationRequestedSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const { body } = request;
      const email = await mailLinkAddress(body.email);
      // Hashed for every address, one with an account too: the work, its time and a busy site's 503 are the same for all.
      const passwordHash = await passwords.hash(body.password);
      const pending: PendingRegistration = { email, firstName: body.firstName, lastName: body.lastName, passwordHash };
      // Whether the address has an account is looked up after the answer went: its time must not tell either.
      const work = mailRegistration(pending).catch((error: unknown) =>
        request.log.error({ err: error }, 'a registration mail could not be sent'),
      );
      registering.add(work);
      void work.finally(() => registering.delete(work));
      return reply.status(202).send({ message: REGISTRATION_REQUESTED_MESSAGE });
    },
  );

  /** A page with the token in its address: no cache keeps it (the site's Referrer-Policy never sends a path to another site). */
  const sendLinkPage = (reply: FastifyReply, html: string) =>
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
  /** Opening a mailed link: a page that names the address and whose button POSTs the token, or one that says the link is spent. */
  const linkPage = (path: string, summary: string, page: (token: string) => Promise<string>) =>
    app.get(
      path,
      route(
        'public',
        summary,
        {
          params: TokenParams,
          response: {
            200: { description: 'The confirmation page, or one that says the link is spent, expired or unknown', contentType: 'text/html' },
          },
        },
        { rateLimit: authLimit },
      ),
      async (request, reply) => sendLinkPage(reply, await page(request.params.token)),
    );

  linkPage(
    '/api/auth/register/confirm/:token',
    'Open the link that finishes signing up: a page that names the address and makes the account only when its button is pressed (a POST); opening it uses nothing up',
    async (token) => {
      const pending = parsePending(await registrationLinks.peek(token));
      return pending ? registrationLinkPage(`/api/auth/register/confirm/${token}`, pending.email) : spentRegistrationLinkPage();
    },
  );

  app.post(
    '/api/auth/register/confirm/:token',
    route(
      'public',
      'Finish signing up with the link’s token (the button of its page): the account is made and signed in once, then the link is spent; the community’s first member becomes its admin',
      {
        params: TokenParams,
        response: {
          200: {
            description: 'A page that says the link is spent, expired or unknown, or that the address has an account by now',
            contentType: 'text/html',
          },
          303: redirect('To the home page, signed in as the new member'),
        },
      },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const page = (html: string) => sendLinkPage(reply, html);
      // Taking it is atomic: of two uses at once, one gets it.
      const pending = parsePending(await registrationLinks.take(request.params.token));
      if (!pending) return page(spentRegistrationLinkPage());
      const { email } = pending;
      if (await credentials.findOne({ email })) return page(registeredAlreadyPage());
      // The address stream makes e-mail addresses unique across concurrent registrations;
      // a registration that claimed an address but never finished can be completed later.
      const memberId = await claimEmail(eventStore, config.emailClaimSecret, email, randomUUID());
      if ((await eventStore.readStream(streamName('member', memberId))).length > 0) return page(registeredAlreadyPage());
      const isFirstMember =
        (await members.countDocuments({})) === 0 &&
        (await claim(streamName('founder', 'community'), 'FounderClaimed', memberId)) === memberId;
      try {
        await handle(
          memberDecider,
          streamName('member', memberId),
          {
            type: 'RegisterMember',
            data: {
              id: memberId,
              email,
              firstName: pending.firstName,
              lastName: pending.lastName,
              passwordHash: pending.passwordHash,
              isFirstMember,
            },
            metadata: metadataOf(null),
          },
          { actorId: memberId },
        );
      } catch (error) {
        // Two links of one mailbox used at once: the other made the account a moment ago.
        if (error instanceof DomainError && error.code === 'conflict') return page(registeredAlreadyPage());
        throw error;
      }
      await signIn(request, memberId);
      return reply.redirect('/', 303);
    },
  );

  app.post(
    '/api/auth/login',
    // 401 and 403 are this route's own answers (a wrong password, a suspended account): it is public, so they are not implied.
    route(
      'public',
      'Sign in with e-mail and password; the session cookie is set',
      { body: LoginSchema, response: { 200: UserSchema, 401: ErrorSchema, 403: ErrorSchema } },
      { rateLimit: authLimit },
    ),
    async (request): Promise<User> => {
      const { body } = request;
      const email = body.email.trim().toLowerCase();
      // Wrong passwords are counted per account too, from whatever client addresses they come.
      await addressLimits.check('sign-in-failures', email);
      const account = await credentials.findOne({ email });
      const valid = account?.passwordHash
        ? await passwords.verify(body.password, account.passwordHash)
        : await passwords.withoutAccount(body.password);
      if (!account || !valid) {
        await addressLimits.count('sign-in-failures', email);
        throw fail.unauthenticated('Invalid email or password');
      }
      await addressLimits.clear('sign-in-failures', email);
      const member = await memberOrFail(account._id);
      if (member.suspended) throw fail.forbidden('Your account is suspended. Please contact the community staff.');
      await signIn(request, member._id);
      return userDto(member);
    },
  );

  app.post(
    '/api/auth/magic-link',
    route(
      'public',
      'E-mail a one-time sign-in link; answers the same whether or not the address has an account',
      { body: MagicLinkSchema, response: { 202: SignInLinkRequestedSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const { body } = request;
      const email = await mailLinkAddress(body.email);
      const account = await credentials.findOne({ email });
      const member = account && (await members.findOne({ _id: account._id }));
      if (member && !member.suspended) {
        const token = await signInLinks.issue(member._id);
        const link = `${config.publicUrl}/api/auth/magic/${token}`;
        await services.mail.enqueue(
          `sign-in-link:${createHash('sha256').update(token).digest('hex')}`,
          signInMail({ to: member.email, name: displayName(member), link }),
        );
      }
      return reply.status(202).send({ message: 'If an account exists for that address, a sign-in link is on its way.' });
    },
  );

  linkPage(
    '/api/auth/magic/:token',
    'Open a sign-in link from the e-mail: a page that names the account and signs in only when its button is pressed (a POST); opening it uses nothing up',
    async (token) => {
      const memberId = await signInLinks.peek(token);
      const member = memberId ? await members.findOne({ _id: memberId }) : null;
      return member && !member.suspended ? signInLinkPage(`/api/auth/magic/${token}`, member.email) : spentLinkPage();
    },
  );

  app.post(
    '/api/auth/magic/:token',
    route(
      'public',
      'Sign in with a sign-in link (the button of its page): signs in once, then the link is spent',
      {
        params: TokenParams,
        response: {
          303: redirect(
            'To the home page when signed in; to /login?error=link for a spent, expired or unknown link, or a suspended account',
          ),
        },
      },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const { token } = request.params;
      const memberId = await signInLinks.take(token);
      const member = memberId ? await members.findOne({ _id: memberId }) : null;
      if (!member || member.suspended) return reply.redirect('/login?error=link', 303);
      await signIn(request, member._id);
      return reply.redirect('/', 303);
    },
  );

  async function signOut(request: FastifyRequest) {
    if (request.session.memberId) await request.session.destroy();
  }
  app.post(
    '/api/logout',
    route('public', 'Sign out: the session ends', { response: { 204: noContent('Signed out (also when no one was signed in)') } }),
    async (request, reply) => {
      await signOut(request);
      return reply.status(204).send();
    },
  );
  app.get(
    '/api/logout',
    route('public', 'Sign out from a link: only on the site’s own navigation or an address typed in', {
      response: { 302: redirect('To the home page') },
    }),
    async (request, reply: FastifyReply) => {
      // A GET can be started by any site (a link, an image): sign out only on the site's own navigation or one
      // typed in ('none'); browsers too old to send Sec-Fetch-Site are let through, as before.
      const site = request.headers['sec-fetch-site'];
      if (site === undefined || site === 'same-origin' || site === 'none') await signOut(request);
      return reply.redirect('/');
    },
  );

  app.get('/api/auth/user', route('signed-in', 'Who is signed in', { response: { 200: UserSchema } }), async (request) =>
    userDto(await memberOrFail(request.actor!.id)),
  );
  // The same for the web app, which asks on every page: a visitor is an answer ({ user: null }), not a 401 in the console.
  app.get(
    '/api/auth/session',
    route('public', 'Who is signed in, or null for a visitor', { response: { 200: SessionSchema } }),
    async (request) => {
      return { user: request.actor ? userDto(await memberOrFail(request.actor.id)) : null };
    },
  );

  /** The user list's search and filters, as one filter; presence is asked of Redis and becomes a list of ids. */
  async function memberListFilter(query: MembersQuery): Promise<Filter> {
    const conditions: Filter[] = [];
    const contains = (word: string) => ({ $regex: escapeRegex(word), $options: 'i' });
    for (const word of (query.q ?? '').split(/\s+/u).filter(Boolean).slice(0, MEMBER_SEARCH_WORDS))
      conditions.push({ $or: [{ firstName: contains(word) }, { lastName: contains(word) }, { email: contains(word) }] });
    if (query.role) conditions.push({ role: query.role });
    if (query.suspended) conditions.push({ suspended: query.suspended === 'true' });
    const status = query.online === 'true' ? 'online' : query.status;
    if (status === 'online') conditions.push({ _id: { $in: await services.presence.online() } });
    if (status === 'away') conditions.push({ _id: { $in: await services.presence.away() } });
    if (status === 'offline')
      conditions.push({ _id: { $nin: [...(await services.presence.online()), ...(await services.presence.away())] } });
    return conditions.length === 0 ? {} : conditions.length === 1 ? conditions[0]! : { $and: conditions };
  }

  app.get(
    '/api/admin/users',
    route(
      STAFF,
      'The member list, newest first, with presence and post counts; searched by name or e-mail, filtered by role, presence or suspension',
      { querystring: MembersQuery, response: { 200: pageSchema(MemberRowSchema) } },
    ),
    async (request) => {
      const { query } = request;
      const page = await findPage(members, await memberListFilter(query), NEWEST_MEMBERS_FIRST, query);
      // Presence and post counts only for the page: asking them for every member made the list grow with the community.
      const ids = page.items.map((member) => member._id);
      const [status, posts] = await Promise.all([services.presence.statuses(ids), postCountsByAuthor(store, ids)]);
      return mapPage(
        page,
        (member): MemberRow => ({
          id: member._id,
          name: displayName(member),
          email: member.email,
          role: member.role,
          status: status.get(member._id) ?? 'offline',
          posts: posts.get(member._id) ?? 0,
          joinedAt: member.registeredAt,
          suspended: member.suspended,
        }),
      );
    },
  );

  app.put(
    '/api/admin/users/:id/role',
    // 409: someone else changed the member at the same moment; 422: the last active admin cannot be demoted.
    route(ADMIN, 'Change a member’s role; their open pages reconnect with the new one', {
      params: IdParams,
      body: RoleChangeSchema,
      response: { 200: UserSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema },
    }),
    async (request): Promise<User> => {
      const { id } = request.params;
      const { role } = request.body;
      await memberOrFail(id);
      const adminCount = await members.countDocuments({ role: 'admin', suspended: false });
      await decideOnMember(id, request.actor!, { type: 'ChangeRole', data: { role, adminCount } });
      await memberSessions.standingChanged();
      // Open sockets joined the rooms of the old role (a demoted staff member would go on hearing staff notices):
      // end them; the browser reconnects into the rooms of the new role.
      await options.disconnectMember(id);
      return userDto(await memberOrFail(id));
    },
  );

  app.put(
    '/api/admin/users/:id/suspend',
    // 403: staff may not suspend an admin; 409: changed by someone else at the same moment; 422: no one may suspend themselves.
    route(STAFF, 'Suspend a member: signed out everywhere, and refused sign-in until unsuspended', {
      params: IdParams,
      response: { 200: UserSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema },
    }),
    async (request): Promise<User> => {
      const { id } = request.params;
      await memberOrFail(id);
      await decideOnMember(id, request.actor!, { type: 'SuspendMember', data: {} });
      await memberSessions.endAll(id);
      await options.disconnectMember(id);
      return userDto(await memberOrFail(id));
    },
  );

  app.put(
    '/api/admin/users/:id/unsuspend',
    // 403: staff may not unsuspend an admin; 409: changed by someone else at the same moment.
    route(STAFF, 'Lift a member’s suspension', { params: IdParams, response: { 200: UserSchema, 404: ErrorSchema, 409: ErrorSchema } }),
    async (request): Promise<User> => {
      const { id } = request.params;
      await memberOrFail(id);
      await decideOnMember(id, request.actor!, { type: 'UnsuspendMember', data: {} });
      await memberSessions.standingChanged();
      return userDto(await memberOrFail(id));
    },
  );
}
