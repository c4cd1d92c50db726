/** The blog's read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { blogProjection, blogPosts, type BlogPostDocument } from './blog';
export { blogPostDto, findBlogPost } from './queries';
export { startBlogSchedule, publishDuePosts } from './schedule';
export { listBlogRevisions, findBlogRevision } from './revisions';
export { readingPage, newestTagged, taggedPage, type ListedPost, type ReadingPage } from './reading';
