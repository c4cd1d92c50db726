/** The newsfeed's read models, as the rest of the site reads them (docs/architecture.md#read-model-ownership). */
export { feedProjection, feedPosts, type FeedPostDocument } from './feed';
export {
  canSeeHistory,
  canSeePost,
  feedPage,
  IN_REVIEW,
  postDto,
  publishedPostCount,
  QUEUE_ORDER,
  revisionPage,
  trendingTags,
} from './queries';
