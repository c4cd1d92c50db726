/** Sharing a blog post (its page in the app, and a visitor's page once hydrated: client/features/blog/post-comments.tsx). */
import { useToast } from '../../components/ui/toast';
import { htmlToText } from '../../../shared/blog/excerpt';
import { SHARE_DESCRIPTION_LENGTH } from '../../../shared/feed/constants';
import { copyText, openSharePopup, shareNetworks } from '../../lib/share';

interface SharedPost {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
}

/** A post's link to copy, and the networks to share it on. */
export function SharePost({ post }: { post: SharedPost }) {
  const { toast } = useToast();
  const url = `${window.location.origin}/blog/${post.slug}`;
  const description = post.excerpt || htmlToText(post.content).slice(0, SHARE_DESCRIPTION_LENGTH);
  const networks = shareNetworks(url, `${post.title}: ${description}`);
  const copy = async () => {
    if (!(await copyText(url))) {
      toast({ title: 'Copy failed', description: 'Unable to copy the link. Please try again.', variant: 'destructive' });
      return;
    }
    toast({ title: 'Link copied!', description: 'The post URL has been copied to your clipboard.' });
  };
  return (
    <div className="flex flex-wrap gap-2" aria-label="Share this post" role="group">
      <button
        type="button"
        onClick={() => void copy()}
        className="min-h-11 rounded-md border border-slate-300 px-3 text-sm dark:border-slate-600"
      >
        Copy link
      </button>
      {networks.map((network) => (
        <button
          key={network.name}
          type="button"
          onClick={() => openSharePopup(network.href)}
          className="min-h-11 rounded-md border border-slate-300 px-3 text-sm dark:border-slate-600"
        >
          {network.name}
        </button>
      ))}
    </div>
  );
}
