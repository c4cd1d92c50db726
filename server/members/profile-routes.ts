/**
 * A member's profile page (docs/domain/members.md#profile-page): who they are, their newest posts in the feed and
 * the events they organise, as any signed-in member may see them. Read from the members, feed and calendar read
 * models, three index-served reads.
 */
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { fail } from '../../shared/domain';
import { text } from '../../shared/text-schema';
import { truncate } from '../../shared/text';
import { displayName } from '../../shared/members/display';
import {
  MemberProfileSchema,
  PROFILE_EVENTS,
  PROFILE_EXCERPT_LENGTH,
  PROFILE_PAST_EVENTS,
  PROFILE_POSTS,
  type MemberProfile,
  type ProfileEvent,
} from '../../shared/members/profile';
import { membersCollection } from '../../projections/members';
import { feedPosts } from '../../projections/feed';
import { calendarEvents, type CalendarEventDocument } from '../../projections/events';
import { ErrorSchema, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import { STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';

// Any text up to an id's length: an id that is no member's is a 404 like an unknown one, not a 400.
const ProfileParams = v.object({ id: v.pipe(text(), v.maxLength(100, 'Member not found')) });

const compactEvent = (event: CalendarEventDocument): ProfileEvent => ({
  id: event._id,
  title: event.title,
  startsAt: event.startDate,
  location: event.location,
});

export async function profileRoutes(fastify: FastifyInstance, { services }: { services: Pick<ApiDependencies, 'store' | 'now'> }) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const { store } = services;
  const members = membersCollection(store);
  const posts = feedPosts(store);
  const calendar = calendarEvents(store);

  const route = routeOptions(['members']);
  app.get(
    '/api/members/:id',
    route(
      'signed-in',
      'A member’s profile: name, picture, role, bio, when they joined, their newest posts and the events they organise; never their e-mail address',
      { params: ProfileParams, response: { 200: MemberProfileSchema, 404: ErrorSchema } },
    ),
    async (request): Promise<MemberProfile> => {
      const { id } = request.params;
      const member = await members.findOne({ _id: id });
      // A suspended member's page is staff's to see (they may be deciding about them); to members they are gone.
      if (!member || (member.suspended && !STAFF.includes(request.actor!.role))) throw fail.notFound('Member not found');
      const now = services.now().toISOString();
      // Only what every member sees: approved posts, and public approved events that were not cancelled.
      const shownEvents = { organizerId: id, status: 'approved', isPublic: true, isCancelled: { $ne: true } };
      const [newestPosts, upcoming, past] = await Promise.all([
        posts.find({ authorId: id, status: 'approved' }, { sort: { createdAt: -1, _id: -1 }, limit: PROFILE_POSTS }),
        calendar.find({ ...shownEvents, startDate: { $gte: now } }, { sort: { startDate: 1, _id: 1 }, limit: PROFILE_EVENTS }),
        calendar.find({ ...shownEvents, startDate: { $lt: now } }, { sort: { startDate: -1, _id: -1 }, limit: PROFILE_PAST_EVENTS }),
      ]);
      return {
        id: member._id,
        name: displayName(member),
        avatar: member.profileImageUrl,
        role: member.role,
        // Documents written before the bio existed have none.
        bio: member.bio ?? '',
        joinedAt: member.registeredAt,
        posts: newestPosts.map((post) => ({
          id: post._id,
          excerpt: truncate(post.content, PROFILE_EXCERPT_LENGTH),
          createdAt: post.createdAt,
          likes: post.likes,
          comments: post.comments,
        })),
        events: [...upcoming, ...past].map(compactEvent),
      };
    },
  );
}
