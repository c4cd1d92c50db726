/**
 * Password reset by mail (docs/domain/members.md#password-reset): a link mailed to the account's address opens a
 * page where a new password is chosen; using it signs the member out everywhere. The link's token lives as the
 * sign-in link's does (32 random bytes, only its SHA-256 kept, in Redis); the log records that a reset was asked for
 * and used, by a random reset id that says nothing of the token, and the decider holds the 60 minutes by the site's
 * clock.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { DomainError } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { memberDecider, RESET_LINK_SPENT } from '../../shared/members/member-stream';
import { displayName } from '../../shared/members/display';
import { text } from '../../shared/text-schema';
import {
  PASSWORD_RESET_REQUESTED_MESSAGE,
  PasswordResetLinkSpentSchema,
  PasswordResetRequestedSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
} from '../../shared/members/password-reset';
import { credentialsCollection, membersCollection, type MemberDocument } from '../../projections/members';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { MemberSessions } from '../http/session-store';
import type { ApiDependencies } from '../dependencies';
import type { PasswordWork } from './passwords';
import type { AddressLimits } from './address-limits';
import { createOneTimeLinks, hashToken } from './one-time-links';
import { passwordResetMail } from './password-reset-mail';
import { SIGN_IN_LINK_TTL_SECONDS } from './routes';
import { EMAIL_CHANGE_LINK_TTL_SECONDS } from './account-routes';

/** Redis keeps the link no longer than it can work; the decider decides by the site's clock. */
export const PASSWORD_RESET_LINK_TTL_SECONDS = 60 * 60;

export interface PasswordResetRoutesOptions {
  services: Pick<ApiDependencies, 'store' | 'handle' | 'config' | 'redis' | 'mail' | 'now'>;
  memberSessions: MemberSessions;
  /** Ends a member's open sockets on every API process: those of ended sessions must not go on hearing notices. */
  disconnectMember: (memberId: string) => Promise<void>;
  passwords: PasswordWork;
  addressLimits: AddressLimits;
}

const TokenParams = v.object({ token: text() });
/** What a reset link's token stands for, in Redis. */
const ResetLink = v.object({ memberId: v.string(), resetId: v.string() });

export async function passwordResetRoutes(fastify: FastifyInstance, options: PasswordResetRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const route = routeOptions(['members']);
  const { services, memberSessions, passwords, addressLimits } = options;
  const { store, handle, config } = services;
  const members = membersCollection(store);
  const credentials = credentialsCollection(store);
  const resetLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'password-reset-link', PASSWORD_RESET_LINK_TTL_SECONDS);
  const signInLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'sign-in-link', SIGN_IN_LINK_TTL_SECONDS);
  const emailLinks = createOneTimeLinks(services.redis, config.redisPrefix, 'email-change-link', EMAIL_CHANGE_LINK_TTL_SECONDS);
  // Limited like sign-in: asking mails someone, and guessing tokens is what an attacker would repeat.
  const authLimit = { max: config.rateLimits.auth, timeWindow: '1 minute' };

  /** Links still being recorded and mailed after their answer went: a closing site waits for them. */
  const sending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...sending]);
  });

  async function sendResetLink(member: MemberDocument) {
    const resetId = randomUUID();
    await handle(
      memberDecider,
      streamName('member', member._id),
      { type: 'RequestPasswordReset', data: { resetId }, metadata: { now: services.now(), actor: null } },
      {},
    );
    const token = await resetLinks.issue(JSON.stringify({ memberId: member._id, resetId }), member._id);
    const link = `${config.publicUrl}/reset-password/${token}`;
    await services.mail.enqueue(
      `password-reset-link:${hashToken(token)}`,
      passwordResetMail({ to: member.email, name: displayName(member), link }),
    );
  }

  app.post(
    '/api/auth/password-reset',
    route(
      'public',
      'E-mail a link to choose a new password (valid 60 minutes, works once); answers the same whether or not the address has an account',
      { body: PasswordResetRequestSchema, response: { 202: PasswordResetRequestedSchema } },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const { email } = request.body;
      // Counted whether or not the address has an account, so the limit says nothing about that either.
      await addressLimits.take('mail-links', email);
      const account = await credentials.findOne({ email });
      const member = account && (await members.findOne({ _id: account._id }));
      if (member && !member.suspended) {
        // The answer does not wait for the link to be recorded and mailed: how long it takes must not tell whether
        // the address has an account.
        const work = sendResetLink(member).catch((error: unknown) =>
          request.log.error({ err: error }, 'a password reset link could not be sent'),
        );
        sending.add(work);
        void work.finally(() => sending.delete(work));
      }
      return reply.status(202).send({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
    },
  );

  app.post(
    '/api/auth/password-reset/:token',
    route(
      'public',
      'Choose a new password with a reset link’s token (the registration rule applies); every session of the member ends, and the link is spent',
      {
        params: TokenParams,
        body: PasswordResetSchema,
        response: {
          204: noContent('Changed; every session of the member has ended: sign in with the new password'),
          404: PasswordResetLinkSpentSchema,
          409: ErrorSchema,
        },
      },
      { rateLimit: authLimit },
    ),
    async (request, reply) => {
      const spent = () => reply.status(404).send({ error: RESET_LINK_SPENT, message: RESET_LINK_SPENT });
      const { token } = request.params;
      const subject = await resetLinks.peek(token);
      const parsed = subject ? v.safeParse(ResetLink, JSON.parse(subject)) : null;
      if (!parsed?.success) return spent();
      const { memberId, resetId } = parsed.output;
      const member = await members.findOne({ _id: memberId });
      if (!member) return spent();
      // Hashed before the link is spent, so a site too busy to hash (503) leaves it usable.
      const passwordHash = await passwords.hash(request.body.password);
      // Taking it is atomic: of two uses at once, one gets it.
      if ((await resetLinks.take(token)) === null) return spent();
      try {
        await handle(
          memberDecider,
          streamName('member', memberId),
          {
            type: 'ResetPassword',
            data: { resetId, passwordHash },
            metadata: { now: services.now(), actor: { id: member._id, role: member.role } },
          },
          { actorId: memberId },
        );
      } catch (error) {
        // Expired by the site's clock, ended by a later password or address, suspended or erased meanwhile.
        if (error instanceof DomainError && (error.code === 'not_found' || error.code === 'forbidden')) return spent();
        throw error;
      }
      // Whoever knew the old password, or holds a session or a mailed link, loses it: the member signs in afresh.
      await Promise.all([resetLinks.endAll(memberId), signInLinks.endAll(memberId), emailLinks.endAll(memberId)]);
      await memberSessions.endAll(memberId);
      await options.disconnectMember(memberId);
      // Proving the mailbox ends a run of wrong passwords: the account is not left locked against its owner.
      await addressLimits.clear('sign-in-failures', member.email);
      return reply.status(204).send();
    },
  );
}
