/** Every projection the runner maintains, in the order they are applied (erasure last: it follows what the others copied). */
import type { Projection } from '../platform/projections/runner';
import { membersProjection } from './members/members';
import { memberPostCountsProjection } from './members/post-counts';
import { feedProjection } from './feed/feed';
import { blogProjection } from './blog/blog';
import { sitePagesProjection } from './site-pages/site-pages';
import { eventsProjection } from './events/events';
import { memberEventsProjection } from './events/member-events';
import { eventStatsProjection } from './events/event-stats';
import { calendarFeedsProjection } from './events/calendar-feeds';
import { commentsProjection } from './comments/comments';
import { reportsProjection } from './reports/reports';
import { notificationsProjection } from './notifications/notifications';
import { bookmarksProjection } from './bookmarks/bookmarks';
import { subscriptionsProjection } from './subscriptions/subscriptions';
import { mediaProjection } from './media/media';
import { memberActivityProjection } from './members/activity';
import { erasureProjection } from './members/erasure';

export const allProjections: readonly Projection[] = [membersProjection, memberPostCountsProjection, feedProjection, blogProjection, eventsProjection, memberEventsProjection, eventStatsProjection, calendarFeedsProjection, subscriptionsProjection, sitePagesProjection, commentsProjection, reportsProjection, notificationsProjection, bookmarksProjection, mediaProjection, memberActivityProjection, erasureProjection];
