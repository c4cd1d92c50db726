/** Blog posts as the API answers them. */
import type { BlogPost } from '../../shared/blog/schemas';
import type { DocumentStore } from '../../platform/document-store/port';
import { isUuid } from '../../shared/ids';
import { blogPosts, blogSlugs, type BlogPostDocument } from './blog';

/**
 * The post at an address: by its id or by any slug it has had. `moved` when the address is not the post's own
 * (an id, or an earlier slug): pages answer 301 to `/blog/<slug>`.
 */
export async function findBlogPost(store: DocumentStore, idOrSlug: string): Promise<{ post: BlogPostDocument; moved: boolean } | null> {
  const address = idOrSlug.toLowerCase();
  if (isUuid(address)) {
    const post = await blogPosts(store).findOne({ _id: address });
    return post && { post, moved: true };
  }
  const held = await blogSlugs(store).findOne({ _id: address });
  const post = held && (await blogPosts(store).findOne({ _id: held.postId }));
  return post ? { post, moved: post.slug !== address } : null;
}

export function blogPostDto(post: BlogPostDocument): BlogPost {
  return {
    id: post._id,
    title: post.title,
    slug: post.slug,
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
    publishAt: post.publishAt ?? null,
    author: { id: post.authorId, ...post.author },
    comments: post.comments,
  };
}
