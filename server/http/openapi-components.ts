/**
 * The answers the OpenAPI document names once, under `components/schemas`, and refers to wherever a route answers
 * them (whole or inside a list): what a client generated from the document calls `Post`, `CalendarEvent`, `User`.
 * Requests stay written out in each operation: their input forms differ from the answers'.
 */
import { BlogPostSchema } from '../../shared/blog/schemas';
import { BookmarkSchema } from '../../shared/bookmarks/schemas';
import { CommentSchema } from '../../shared/comments/schemas';
import {
  CategorySchema,
  ReplyRevisionSchema,
  ReplySchema,
  TopicPageSchema,
  TopicSchema,
  TopicSummarySchema,
} from '../../shared/discussions/schemas';
import {
  AttendeeCountsSchema,
  CalendarEventSchema,
  EventStatsSchema,
  MyRsvpSchema,
  OrganizerSchema,
  WaitlistSchema,
} from '../../shared/events/schemas';
import { AdminStatsSchema, AuthorSchema, CommunityStatsSchema, PostSchema } from '../../shared/feed/schemas';
import { MailSummarySchema } from '../../shared/mailbox/schemas';
import { MediaSchema } from '../../shared/media/schemas';
import { MemberRowSchema, OpenSessionSchema, SessionSchema, UserSchema } from '../../shared/members/schemas';
import { AlertSchema, MonitoringSchema } from '../../shared/monitoring/schemas';
import { NotificationPageSchema, NotificationSchema } from '../../shared/notifications/schemas';
import { ReportGroupSchema } from '../../shared/reports/schemas';
import { SitePageSchema } from '../../shared/site-pages/schemas';
import { ConsentRecordSchema, SubscriptionSchema } from '../../shared/subscriptions/schemas';

export const NAMED_ANSWERS = {
  AdminStats: AdminStatsSchema,
  Alert: AlertSchema,
  AttendeeCounts: AttendeeCountsSchema,
  Author: AuthorSchema,
  BlogPost: BlogPostSchema,
  Bookmark: BookmarkSchema,
  CalendarEvent: CalendarEventSchema,
  Comment: CommentSchema,
  CommunityStats: CommunityStatsSchema,
  ConsentRecord: ConsentRecordSchema,
  DiscussionCategory: CategorySchema,
  DiscussionReply: ReplySchema,
  DiscussionReplyRevision: ReplyRevisionSchema,
  DiscussionTopic: TopicSchema,
  DiscussionTopicPage: TopicPageSchema,
  DiscussionTopicSummary: TopicSummarySchema,
  EventStats: EventStatsSchema,
  MailSummary: MailSummarySchema,
  Media: MediaSchema,
  MemberRow: MemberRowSchema,
  Monitoring: MonitoringSchema,
  MyRsvp: MyRsvpSchema,
  Notification: NotificationSchema,
  NotificationPage: NotificationPageSchema,
  OpenSession: OpenSessionSchema,
  Organizer: OrganizerSchema,
  Post: PostSchema,
  ReportGroup: ReportGroupSchema,
  Session: SessionSchema,
  SitePage: SitePageSchema,
  Subscription: SubscriptionSchema,
  User: UserSchema,
  Waitlist: WaitlistSchema,
};
