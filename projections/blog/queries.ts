/** Blog posts as the API answers them. */
import type { BlogPost } from '../../shared/blog/schemas';
import type { BlogPostDocument } from './blog';

export function blogPostDto(post: BlogPostDocument): BlogPost {
  return {
    id: post._id,
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    tags: post.tags,
    ...(post.media ? { media: post.media } : {}),
    isPublished: post.isPublished,
    isPinned: post.isPinned,
    isFeatured: post.isFeatured,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    publishedAt: post.publishedAt,
    author: { id: post.authorId, ...post.author },
    comments: post.comments,
  };
}
