/**
 * Every projection the runner maintains. Each keeps its own read models from the events alone and reads no other's
 * (docs/architecture.md#read-model-ownership), so their order here means nothing.
 */
import type { Projection } from '../platform/projections/runner';
import { membersProjection, memberPostCountsProjection, memberActivityProjection } from './members';
import { feedProjection } from './feed';
import { blogProjection } from './blog';
import { sitePagesProjection } from './site-pages';
import { eventsProjection, memberEventsProjection, eventStatsProjection, calendarFeedsProjection } from './events';
import { commentsProjection } from './comments';
import { reportsProjection } from './reports';
import { notificationsProjection } from './notifications';
import { bookmarksProjection } from './bookmarks';
import { subscriptionsProjection } from './subscriptions';
import { mediaProjection } from './media';
import { discussionsProjection } from './discussions';

export const allProjections: readonly Projection[] = [
  membersProjection,
  memberPostCountsProjection,
  feedProjection,
  blogProjection,
  eventsProjection,
  memberEventsProjection,
  eventStatsProjection,
  calendarFeedsProjection,
  subscriptionsProjection,
  sitePagesProjection,
  commentsProjection,
  reportsProjection,
  notificationsProjection,
  bookmarksProjection,
  mediaProjection,
  memberActivityProjection,
  discussionsProjection,
];
