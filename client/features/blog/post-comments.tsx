/**
 * What a visitor's post page (the server's HTML, hydrated: client/public-page.tsx) gains once they read on: the
 * post's sharing and its comments, loaded when the article's end is on screen or at the reader's first move, so
 * nothing competes with the article's first paint. Below the shared article (shared/public-pages/views.tsx).
 */
import { CommentThread } from '../../components/comment-thread';
import { Toaster } from '../../components/ui/toast';
import { useCurrentUser } from '../../lib/current-user';
import type { PublicPost } from '../../../shared/public-pages/props';
import { useBlogPost } from './api';
import { SharePost } from './share-post';

export function PostComments({ post }: { post: PublicPost }) {
  const viewer = useCurrentUser();
  const found = useBlogPost(post.slug);
  const comments = found.data?.comments;
  return (
    <div className="mx-auto mt-6 max-w-3xl">
      <SharePost post={post} />
      <section aria-labelledby="comments-heading" className="mt-8">
        <h2 id="comments-heading" className="text-xl font-semibold">
          {comments === undefined ? 'Comments' : `Comments · ${comments}`}
        </h2>
        <CommentThread targetType="blog" targetId={post.id} viewer={viewer.data ?? null} />
      </section>
      <Toaster />
    </div>
  );
}
