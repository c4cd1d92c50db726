/** The newsfeed's read models, as the rest of the site reads them (docs/architecture.md#read-model-ownership). */
export { feedProjection, feedPosts, type FeedPostDocument } from './feed';
export { canSeePost, feedPage, postDto, publishedPostCount, trendingTags } from './queries';
