/**
 * A feed post's own page (/posts/{id}), where shared links and notifications lead: the post as the feed shows it,
 * its comments open. `#comment-<id>` scrolls to that comment and marks it for a moment. A visitor reads an approved
 * post (as the public feed shows it); a pending or rejected one only its author and staff.
 */
import { useEffect } from 'react';
import { Link, useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { Spinner } from '../../components/ui/spinner';
import { useCurrentUser } from '../../lib/current-user';
import { SITE_NAME } from '../../../shared/landing';
import { usePost } from './api';
import { PostCard } from './post-card';

const LINK = 'inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent';
const NOBODY_ONLINE: ReadonlySet<string> = new Set();
/** How long a comment's thread may take to arrive before the page stops looking for it. */
const FIND_COMMENT_MS = 10_000;
const HIGHLIGHT = ['rounded-lg', 'bg-amber-50', 'ring-2', 'ring-amber-500', 'dark:bg-slate-800'];

/** Scrolls to the element `hash` names once it is on the page, focuses it and marks it for a few seconds. */
function useScrollToHash(hash: string, ready: boolean) {
  useEffect(() => {
    if (!ready || !/^comment-[\w-]+$/u.test(hash)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const found = () => {
      const target = document.getElementById(hash);
      if (!target) return false;
      target.scrollIntoView({
        block: 'center',
        behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
      });
      target.tabIndex = -1;
      target.focus({ preventScroll: true });
      target.classList.add(...HIGHLIGHT);
      target.setAttribute('data-highlighted', 'true');
      timer = setTimeout(() => {
        target.classList.remove(...HIGHLIGHT);
        target.removeAttribute('data-highlighted');
      }, 4000);
      return true;
    };
    if (found()) return () => clearTimeout(timer);
    // The thread loads after the post: watch for the comment rather than poll.
    const observer = new MutationObserver(() => found() && observer.disconnect());
    observer.observe(document.body, { childList: true, subtree: true });
    const giveUp = setTimeout(() => observer.disconnect(), FIND_COMMENT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(giveUp);
      clearTimeout(timer);
    };
  }, [hash, ready]);
}

export function PostPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const hash = useRouterState({ select: (state) => state.location.hash });
  const { data: user } = useCurrentUser();
  const navigate = useNavigate();
  const query = usePost(id);
  const post = query.data;
  useScrollToHash(hash, Boolean(post));
  useEffect(() => {
    if (post) document.title = `Post by ${post.author.name} | ${SITE_NAME}`;
    return () => {
      document.title = SITE_NAME;
    };
  }, [post]);

  if (query.isPending) return <Spinner label="Loading the post" />;
  if (query.isError)
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">The post could not be loaded</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">Please refresh the page in a moment.</p>
      </div>
    );
  if (!post)
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Post not found</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {user
            ? 'This post does not exist, was removed, or is waiting for review.'
            : 'This post does not exist, was removed, or only members can see it.'}
        </p>
        {user ? (
          <Link to="/" className={`${LINK} mt-6`}>
            Back to the newsfeed
          </Link>
        ) : (
          <Link to="/login" search={{ redirect: `/posts/${id}` }} className={`${LINK} mt-6`}>
            Sign in to see it
          </Link>
        )}
      </div>
    );
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      {user && (
        <Link to="/" className={LINK}>
          <span aria-hidden="true">←&nbsp;</span>Newsfeed
        </Link>
      )}
      <h1 className="sr-only">Post by {post.author.name}</h1>
      <PostCard
        key={post.id}
        post={post}
        viewer={user ?? null}
        onlineIds={NOBODY_ONLINE}
        openComments
        onDeleted={() => void navigate({ to: '/' })}
      />
    </div>
  );
}
