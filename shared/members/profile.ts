/** A member's profile page as other members see it (docs/domain/members.md#profile-page): no e-mail address. */
import * as v from 'valibot';
import { ROLES } from '../domain';

/** How many of a member's newest feed posts, of their upcoming events and of their past ones the profile shows. */
export const PROFILE_POSTS = 10;
export const PROFILE_EVENTS = 10;
export const PROFILE_PAST_EVENTS = 5;
/** Characters of a post shown on a profile, cut at a word boundary. */
export const PROFILE_EXCERPT_LENGTH = 200;

export const ProfilePostSchema = v.object({
  id: v.string(),
  excerpt: v.string(),
  createdAt: v.string(),
  likes: v.pipe(v.number(), v.integer(), v.minValue(0)),
  comments: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type ProfilePost = v.InferOutput<typeof ProfilePostSchema>;

export const ProfileEventSchema = v.object({
  id: v.string(),
  title: v.string(),
  /** ISO instant in UTC. */
  startsAt: v.string(),
  location: v.string(),
});
export type ProfileEvent = v.InferOutput<typeof ProfileEventSchema>;

export const MemberProfileSchema = v.object({
  id: v.string(),
  /** The display name (docs/domain/members.md#display-name). */
  name: v.string(),
  /** The picture's address, or null: the initials are shown. */
  avatar: v.nullable(v.string()),
  role: v.picklist(ROLES),
  /** '' when the member wrote none. */
  bio: v.string(),
  /** When the member registered, an ISO instant in UTC. */
  joinedAt: v.string(),
  /** Their newest posts in the feed (approved only), newest first. */
  posts: v.array(ProfilePostSchema),
  /** Public approved events they organise that are not cancelled: upcoming ones soonest first, then past ones newest first. */
  events: v.array(ProfileEventSchema),
});
export type MemberProfile = v.InferOutput<typeof MemberProfileSchema>;
