/**
 * A member's own account (docs/domain/members.md#own-account): name and bio, password, e-mail address (changed
 * once the link mailed to the new address is opened), and their signed-in browsers.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { memberDecider } from '../../shared/members/member-stream';
import { displayName } from '../../shared/members/display';
import { text } from '../../shared/text-schema';
import {
  EmailChangeRequestedSchema,
  EmailChangeSchema,
  OpenSessionsSchema,
  PasswordChangeSchema,
  ProfileChangeSchema,
  SessionsEndedSchema,
  UserSchema,
  type OpenSession,
  type User,
} from '../../shared/members/schemas';
import { credentialsCollection, membersCollection } from '../../projections/members';
import { ErrorSchema, noContent, redirect, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { MemberSessions } from '../http/session-store';
import type { ApiDependencies } from '../dependencies';
import type { PasswordWork } from './passwords';
import type { AddressLimits } from './address-limits';
import { createOneTimeLinks, hashToken } from './one-time-links';
import { claimEmail, releaseEmail } from './email-claims';
import { emailChangedNoticeMail, emailChangeLinkMail, emailTakenNoticeMail } from './account-mail';
import { describeUserAgent } from './user-agent';
import { SIGN_IN_LINK_TTL_SECONDS, userDto } from './routes';

export const EMAIL_CHANGE_LINK_TTL_SECONDS = 24 * 3600;

export interface AccountRoutesOptions {
  services: Pick<ApiDependencies, 'store' | 'eventStore' | 'handle' | 'config' | 'redis' | 'mail' | 'now'>;
  memberSessions: MemberSessions;
  /** Ends a member's open sockets on every API process: those of ended sessions must not go on hearing notices. */
  disconnectMember: (memberId: string) => Promise<void>;
  passwords: PasswordWork;
  addressLimits: AddressLimits;
}

/** What the account page calls a session: a one-way digest, so neither the id nor the cookie ever leaves the server. */
export function sessionHandle(sessionId: string): string {
  return createHash('sha256').update(`session:${sessionId}`).digest('base64url').slice(0, 22);
}

const SessionParams = v.object({ id: v.pipe(text(), v.regex(/^[\w-]{22}$/, 'Unknown session')) });
const TokenParams = v.object({ token: text() });
/** `session`: the session that asked, which stays signed in when the change is made (links mailed before it have none). */
const EmailChangeLink = v.object({ memberId: v.string(), email: v.string(), session: v.optional(v.string()) });

/** Where an e-mail change link lands: the account page, told how it went. */
const EMAIL_OUTCOME = {
  changed: '/account?email=changed',
  taken: '/account?email=taken',
  invalid: '/account?email=invalid',
} as const;

export async function accountRoutes(fastify: FastifyInstance, options: AccountRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const route = routeOptions(['account']);
  const { services, memberSessions, passwords, addressLimits } = options;
  const { store, eventStore, handle, config } = services;
  const members = membersCollection(store);
  const credentials = credentialsCollection(store);
  const emailLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'email-change-link', EMAIL_CHANGE_LINK_TTL_SECONDS);
  const signInLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'sign-in-link', SIGN_IN_LINK_TTL_SECONDS);
  // Trying current passwords and mailing links to any address are what an attacker would repeat: limited like sign-in.
  const authLimit = { max: config.rateLimits.auth, timeWindow: '1 minute' };

  const metadataOf = (actor: Actor) => ({ now: services.now(), actor });
  const me = (actor: Actor | null) => actor!;

  async function memberOrFail(id: string) {
    const member = await members.findOne({ _id: id });
    if (!member) throw fail.notFound('Member not found');
    return member;
  }

  /**
   * The member's password, asked again before what a stolen session must not do alone (a new password, a new
   * address). Wrong ones count against the account as wrong sign-ins do.
   */
  async function confirmPassword(memberId: string, password: string) {
    const member = await memberOrFail(memberId);
    await addressLimits.check('sign-in-failures', member.email);
    const account = await credentials.findOne({ _id: memberId });
    if (!account?.passwordHash || !(await passwords.verify(password, account.passwordHash))) {
      await addressLimits.count('sign-in-failures', member.email);
      throw fail.invalid('Current password is incorrect', { currentPassword: 'Current password is incorrect' });
    }
    return member;
  }

  /** Whoever may have learnt the old password or read the old mailbox loses what it gave them: other sessions, mailed links. */
  async function endOtherAccess(memberId: string, keepSession: string | undefined) {
    await signInLinks.endAll(memberId);
    await emailLinks.endAll(memberId);
    if (keepSession) await memberSessions.endOthers(memberId, keepSession);
    else await memberSessions.endAll(memberId);
    await options.disconnectMember(memberId);
  }

  app.patch(
    '/api/me',
    route('signed-in', 'Change your own first name, last name or bio (plain text, at most 500 characters)', {
      body: ProfileChangeSchema,
      response: { 200: UserSchema, 409: ErrorSchema },
    }),
    async (request): Promise<User> => {
      const actor = me(request.actor);
      const { firstName, lastName, bio } = request.body;
      const data = {
        ...(firstName === undefined ? {} : { firstName }),
        ...(lastName === undefined ? {} : { lastName }),
        ...(bio === undefined ? {} : { bio }),
      };
      await handle(
        memberDecider,
        streamName('member', actor.id),
        { type: 'ChangeProfile', data, metadata: metadataOf(actor) },
        { actorId: actor.id },
      );
      return userDto(await memberOrFail(actor.id));
    },
  );

  app.put(
    '/api/me/password',
    route(
      'signed-in',
      'Change your own password; every other session of yours ends, this one stays signed in',
      { body: PasswordChangeSchema, response: { 204: noContent('Changed; your other sessions have ended'), 409: ErrorSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const actor = me(request.actor);
      const { currentPassword, newPassword } = request.body;
      await confirmPassword(actor.id, currentPassword);
      const passwordHash = await passwords.hash(newPassword);
      await handle(
        memberDecider,
        streamName('member', actor.id),
        { type: 'ChangePassword', data: { passwordHash }, metadata: metadataOf(actor) },
        { actorId: actor.id },
      );
      // Whoever may have learnt the old password is signed out everywhere and their sign-in links end; the member keeps this browser.
      await endOtherAccess(actor.id, request.session.sessionId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/me/email',
    route(
      'signed-in',
      'Ask to change your e-mail address, with your current password: a link valid 24 hours goes to the new address, and opening it makes the change and ends your other sessions. The answer is the same whether or not the new address has an account (its owner is told by mail)',
      { body: EmailChangeSchema, response: { 202: EmailChangeRequestedSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const actor = me(request.actor);
      const { email, currentPassword } = request.body;
      const member = await confirmPassword(actor.id, currentPassword);
      if (email === member.email)
        throw fail.invalid('That is already your e-mail address', { email: 'That is already your e-mail address' });
      await addressLimits.take('mail-links', email);
      const answer = { message: `We sent a link to ${email}. Open it within 24 hours to confirm the change.` };
      const holder = await credentials.findOne({ email });
      if (holder && holder._id !== actor.id) {
        // The answer does not say the address has an account: its owner hears of the attempt instead.
        const owner = await members.findOne({ _id: holder._id });
        await services.mail.enqueue(
          `email-taken:${randomUUID()}`,
          emailTakenNoticeMail({ to: email, name: owner ? displayName(owner) : null }),
        );
        return reply.status(202).send(answer);
      }
      const token = await emailLinks.issue(JSON.stringify({ memberId: actor.id, email, session: request.session.sessionId }), actor.id);
      const link = `${config.publicUrl}/api/me/email/confirm/${token}`;
      await services.mail.enqueue(
        `email-change-link:${hashToken(token)}`,
        emailChangeLinkMail({ to: email, name: displayName(member), link }),
      );
      return reply.status(202).send(answer);
    },
  );

  app.get(
    '/api/me/email/confirm/:token',
    // The link is opened from the new address's mailbox, perhaps in a browser that is not signed in: the token is the proof.
    route(
      'public',
      'Follow an e-mail change link: the address changes once, then the link is spent',
      {
        params: TokenParams,
        response: {
          302: redirect(
            'To /account?email=changed; /account?email=taken when another account has the address now; /account?email=invalid for a spent, expired or unknown link',
          ),
        },
      },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const subject = await emailLinks.take(request.params.token);
      const parsed = subject ? v.safeParse(EmailChangeLink, JSON.parse(subject)) : null;
      if (!parsed?.success) return reply.redirect(EMAIL_OUTCOME.invalid);
      const { memberId, email, session } = parsed.output;
      const member = await members.findOne({ _id: memberId });
      if (!member || member.suspended) return reply.redirect(EMAIL_OUTCOME.invalid);
      if (member.email === email) return reply.redirect(EMAIL_OUTCOME.changed);
      const holder = await credentials.findOne({ email });
      if (holder && holder._id !== memberId) return reply.redirect(EMAIL_OUTCOME.taken);
      // The new address is the member's before their account says so, and the old one is let go only after:
      // two accounts never hold one address, whatever fails in between.
      if ((await claimEmail(eventStore, config.emailClaimSecret, email, memberId)) !== memberId) return reply.redirect(EMAIL_OUTCOME.taken);
      const oldEmail = member.email;
      const actor: Actor = { id: member._id, role: member.role };
      let changed;
      try {
        changed = await handle(
          memberDecider,
          streamName('member', memberId),
          { type: 'ChangeEmail', data: { email }, metadata: metadataOf(actor) },
          { actorId: memberId },
        );
      } catch (error) {
        await releaseEmail(eventStore, config.emailClaimSecret, email, memberId);
        throw error;
      }
      await releaseEmail(eventStore, config.emailClaimSecret, oldEmail, memberId);
      // The address is the account's key: every other session ends, as after a new password, and links to the old one.
      await endOtherAccess(memberId, session);
      await services.mail.enqueue(
        `email-changed:${memberId}:${changed.position ?? 'none'}`,
        emailChangedNoticeMail({ to: oldEmail, name: displayName(member), at: services.now().toISOString() }),
      );
      return reply.redirect(EMAIL_OUTCOME.changed);
    },
  );

  app.get(
    '/api/me/sessions',
    route('signed-in', 'Your signed-in browsers, this one marked current (never a session id or cookie)', {
      response: { 200: OpenSessionsSchema },
    }),
    async (request) => {
      const actor = me(request.actor);
      const current = request.session.sessionId;
      const now = services.now().toISOString();
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      const items = (await memberSessions.list(actor.id)).map(
        (session): OpenSession => ({
          id: sessionHandle(session.sessionId),
          current: session.sessionId === current,
          signedInAt: iso(session.signedInAt),
          lastSeenAt: session.sessionId === current ? now : iso(session.lastSeenAt ?? session.signedInAt),
          userAgent: describeUserAgent(session.userAgent),
        }),
      );
      // This browser first, then the most recently used.
      items.sort((a, b) => Number(b.current) - Number(a.current) || (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? ''));
      return { items };
    },
  );

  app.delete(
    '/api/me/sessions/:id',
    // 422: this browser's own session is ended by signing out.
    route('signed-in', 'End one of your other sessions: that browser is signed out at once', {
      params: SessionParams,
      response: { 204: noContent('Ended'), 404: ErrorSchema, 422: ErrorSchema },
    }),
    async (request, reply) => {
      const actor = me(request.actor);
      const { id } = request.params;
      if (sessionHandle(request.session.sessionId) === id) throw fail.rule('This is the session you are using. Sign out instead.');
      const session = (await memberSessions.list(actor.id)).find((open) => sessionHandle(open.sessionId) === id);
      if (!session || !(await memberSessions.end(actor.id, session.sessionId))) throw fail.notFound('That session has ended already');
      await options.disconnectMember(actor.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/me/sessions/end-others',
    route('signed-in', 'Sign out everywhere else: every session of yours but this one ends', { response: { 200: SessionsEndedSchema } }),
    async (request) => {
      const actor = me(request.actor);
      const ended = await memberSessions.endOthers(actor.id, request.session.sessionId);
      if (ended > 0) await options.disconnectMember(actor.id);
      return { ended };
    },
  );
}
