/** The blog's read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { blogProjection, blogPosts, type BlogPostDocument } from './blog';
export { blogPostDto } from './queries';
