/**
 * Leaving with one's data: the export of everything held about a member, and the erasure of their account
 * (docs/domain/members.md#export, #erasure).
 */
import type { FastifyInstance } from 'fastify';
import { fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { memberDecider } from '../../shared/members/member-stream';
import { AccountExportSchema, EraseAccountSchema, type AccountExport } from '../../shared/members/erasure';
import { credentialsCollection, HELD_NOT_GIVEN, memberActivityOf, membersCollection } from '../../projections/members';
import { subscriptionsCollection } from '../../projections/subscriptions';
import { subscriptionDecider } from '../../shared/subscriptions/subscription-stream';
import { mediaCollection, mediaView, sweepOrphanMedia } from '../../projections/media';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { MemberSessions } from '../http/session-store';
import type { ApiDependencies } from '../dependencies';
import type { PasswordWork } from './passwords';
import { releaseEmail } from './email-claims';
import { exportDocuments } from './export';
import { READ_YOUR_WRITES_WITHIN_MS } from '../../platform/command-handler';
import { displayName } from '../../shared/members/display';

export interface ErasureRoutesOptions {
  services: Pick<
    ApiDependencies,
    'config' | 'store' | 'eventStore' | 'personalDataKeys' | 'handle' | 'media' | 'mailbox' | 'mailProgress' | 'now'
  >;
  memberSessions: MemberSessions;
  disconnectMember: (memberId: string) => Promise<void>;
  passwords: PasswordWork;
}

const ABOUT =
  'Everything Broadcast History Community holds about you. First as documents: your account, your posts, blog posts, comments, the events you organise, your answers to events, your e-mail subscriptions, your open sessions and your uploads. Then, in “activity”, the appendix: every change you made to the site or that concerns you, as the site’s event log records it. Every change to the site is recorded there, so that list is complete.';
const iso = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());

export async function erasureRoutes(
  fastify: FastifyInstance,
  { services, memberSessions, disconnectMember, passwords }: ErasureRoutesOptions,
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const route = routeOptions(['members']);
  const { store } = services;
  const guestSubscriptionsOf = (email: string) =>
    subscriptionsCollection(store).find({ email: email.trim().toLowerCase(), memberId: null }, { sort: { createdAt: 1, _id: 1 } });

  app.get(
    '/api/me/export',
    route(
      'signed-in',
      'A JSON file of everything held about the member: readable documents (account, posts, blog posts, comments, events, RSVPs, subscriptions, sessions, uploads), then the raw event log as an appendix (activity)',
      { response: { 200: AccountExportSchema } },
    ),
    async (request, reply): Promise<AccountExport> => {
      const memberId = request.actor!.id;
      const [member, credentials, own, sessions, uploads, activity, documents] = await Promise.all([
        membersCollection(store).findOne({ _id: memberId }),
        credentialsCollection(store).findOne({ _id: memberId }),
        subscriptionsCollection(store).find({ memberId }, { sort: { createdAt: 1, _id: 1 } }),
        memberSessions.list(memberId),
        mediaCollection(store).find({ ownerId: memberId }, { sort: { uploadedAt: 1, _id: 1 } }),
        memberActivityOf(store, services.eventStore, memberId),
        exportDocuments(store, memberId, services.config.publicUrl),
      ]);
      if (!member) throw fail.notFound('Member not found');
      // Subscriptions of their address made as a guest are theirs too: they end with the account.
      const asGuest = await guestSubscriptionsOf(member.email);
      const subscriptions = [
        ...own.map((subscription) => ({ ...subscription, madeAs: 'member' as const })),
        ...asGuest.map((subscription) => ({ ...subscription, madeAs: 'guest' as const })),
      ];
      const exportedAt = services.now().toISOString();
      void reply.header('content-disposition', `attachment; filename="broadcast-history-community-${exportedAt.slice(0, 10)}.json"`);
      return {
        exportedAt,
        about: ABOUT,
        account: {
          id: member._id,
          email: member.email,
          firstName: member.firstName,
          lastName: member.lastName,
          displayName: displayName(member),
          bio: member.bio ?? '',
          profileImageUrl: member.profileImageUrl,
          role: member.role,
          suspended: member.suspended,
          registeredAt: member.registeredAt,
          password: credentials?.passwordHash ? HELD_NOT_GIVEN : 'none',
        },
        ...documents,
        subscriptions: subscriptions.map((subscription) => ({
          id: subscription._id,
          email: subscription.email,
          madeAs: subscription.madeAs,
          subscriptionType: subscription.subscriptionType,
          frequency: subscription.frequency,
          status: subscription.status,
          createdAt: subscription.createdAt,
          confirmedAt: subscription.confirmedAt,
          unsubscribedAt: subscription.unsubscribedAt,
        })),
        sessions: sessions.map((session) => ({
          signedInAt: iso(session.signedInAt),
          lastSeenAt: iso(session.lastSeenAt),
          userAgent: session.userAgent,
        })),
        uploads: uploads.map((upload) => ({
          id: upload._id,
          kind: upload.kind,
          url: mediaView(upload, 'blog').url,
          uploadedAt: upload.uploadedAt,
        })),
        activity,
      };
    },
  );

  app.delete(
    '/api/me',
    // Trying passwords is what an attacker with a stolen session would repeat: limited like sign-in.
    route(
      'signed-in',
      'Erase the account: personal data gone from every read model and, by destroying its keys, from the event log; content kept as by “Former member” or removed',
      {
        body: EraseAccountSchema,
        response: { 204: noContent('Erased; every session of the member has ended'), 400: ErrorSchema, 422: ErrorSchema },
      },
      { rateLimit: { max: services.config.rateLimits.auth, timeWindow: '1 minute' } },
    ),
    async (request, reply) => {
      const actor = request.actor!;
      const credentials = await credentialsCollection(store).findOne({ _id: actor.id });
      if (!credentials?.passwordHash || !(await passwords.verify(request.body.password, credentials.passwordHash))) {
        throw fail.invalid('Wrong password', { password: 'Wrong password' });
      }
      const adminCount = await membersCollection(store).countDocuments({ role: 'admin', suspended: false });
      const { content } = request.body;
      const erased = await services.handle(
        memberDecider,
        streamName('member', actor.id),
        { type: 'EraseMember', data: { content, adminCount }, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
      // The projections destroy the keys too as the event passes; doing it here makes it immediate for this process.
      await services.personalDataKeys.destroy(actor.id, content === 'removed');
      await releaseEmail(services.eventStore, services.config.emailClaimSecret, credentials.email, actor.id);
      // A guest's subscriptions of their address end too, and their keys go, so that nothing mails or names them.
      // Recorded without the actor: nothing in the log ties the erased member to them.
      const email = credentials.email.trim().toLowerCase();
      let last = erased.position ?? 0;
      for (const subscription of await guestSubscriptionsOf(email)) {
        const stream = streamName('subscription', subscription._id);
        const { position } = await services.handle(
          subscriptionDecider,
          stream,
          { type: 'EraseSubscription', data: { email }, metadata: { now: services.now(), actor } },
          {},
        );
        last = Math.max(last, position ?? 0);
        await services.personalDataKeys.destroyStream(stream);
      }
      // The mail runner's copies of the address go at once too (waited for as a command waits for the read models).
      await services.mailProgress.waitFor(last, READ_YOUR_WRITES_WITHIN_MS);
      // Their picture (and, with their content, every upload of theirs) is no one's now: its files go at once.
      await sweepOrphanMedia({
        store,
        storage: services.media,
        handle: services.handle,
        now: services.now,
        graceMs: services.config.media.orphanHours * 3600 * 1000,
      });
      // The development mail sink's copies of what was sent to them (SMTP_URL unset).
      await services.mailbox.forget(credentials.email);
      await memberSessions.endAll(actor.id);
      await memberSessions.standingChanged();
      await disconnectMember(actor.id);
      await request.session.destroy();
      return reply.status(204).send();
    },
  );
}
