/** Sharing a blog post (its page in the app, and a visitor's page once hydrated: client/features/blog/post-comments.tsx). */
import { ShareLinks } from '../../components/share-links';
import { htmlToText } from '../../../shared/blog/excerpt';
import { SHARE_DESCRIPTION_LENGTH } from '../../../shared/feed/constants';

interface SharedPost {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
}

/** A post's link to copy, and the networks to share it on. */
export function SharePost({ post }: { post: SharedPost }) {
  const description = post.excerpt || htmlToText(post.content).slice(0, SHARE_DESCRIPTION_LENGTH);
  return (
    <div className="flex flex-wrap gap-2" aria-label="Share this post" role="group">
      <ShareLinks
        url={`${window.location.origin}/blog/${post.slug}`}
        title={`${post.title}: ${description}`}
        buttonClassName="min-h-11 rounded-md border border-slate-300 px-3 text-sm dark:border-slate-600"
      />
    </div>
  );
}
