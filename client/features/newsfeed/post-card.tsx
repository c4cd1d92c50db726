import { useState } from 'react';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import type { CurrentUser } from '../../lib/current-user';
import { youtubeEmbedUrl } from '../../../shared/feed/media';
import { SHARE_TITLE_LENGTH } from '../../../shared/feed/constants';
import { ShareLinks } from '../../components/share-links';
import { relativeTime } from '../../lib/relative-time';
import { CommentThread } from '../../components/comment-thread';
import { BookmarkButton } from '../../components/bookmark-button';
import { usePostAction, type Post, type PostAction } from './api';
import { ROLE_COLOUR } from '../../components/ui/role-colour';
import { MemberLink } from '../../components/member-link';
import { Link } from '@tanstack/react-router';
import { PostMenu, canChangePost } from './post-menu';
import { PostEditForm } from './post-edit-form';
import { ReasonDialog } from '../../components/reason-dialog';
import { UploadView } from '../../components/upload-view';

function Media({ post }: { post: Post }) {
  // An upload comes with its size, so the card keeps its height while the picture loads.
  if (post.media)
    return (
      <UploadView
        upload={post.media}
        alt="Photo shared with the post"
        audioLabel="Recording shared with the post"
        lazy
        imageClassName="mt-3 h-auto max-h-[32rem] w-full rounded-lg object-contain"
        audioClassName="mt-3 w-full"
      />
    );
  if (!post.mediaUrl) return null;
  const title = post.mediaTitle ?? undefined;
  switch (post.mediaType) {
    case 'image':
      return (
        <img
          src={post.mediaUrl}
          alt={title ?? 'Image shared with the post'}
          loading="lazy"
          className="mt-3 max-h-96 w-full rounded-lg object-cover"
        />
      );
    case 'video':
      return <video src={post.mediaUrl} controls preload="metadata" title={title} className="mt-3 w-full rounded-lg" />;
    case 'audio':
      return <audio src={post.mediaUrl} controls preload="metadata" title={title} className="mt-3 w-full" />;
    case 'youtube': {
      const embed = youtubeEmbedUrl(post.mediaUrl);
      return embed ? (
        <div className="mt-3 aspect-video overflow-hidden rounded-lg">
          <iframe
            src={embed}
            title={title ?? 'YouTube video'}
            className="size-full"
            allow="encrypted-media; picture-in-picture"
            allowFullScreen
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </div>
      ) : null;
    }
    default:
      return (
        <a
          href={post.mediaUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-3 block rounded-lg border border-slate-200 p-3 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          <p className="font-medium">{title ?? post.mediaUrl}</p>
          <p className="truncate text-sm text-slate-600 dark:text-slate-400">{new URL(post.mediaUrl).hostname}</p>
        </a>
      );
  }
}

function ShareControl({ post, onShared }: { post: Post; onShared: () => void }) {
  const [open, setOpen] = useState(false);
  const text = post.content.length > SHARE_TITLE_LENGTH ? `${post.content.slice(0, SHARE_TITLE_LENGTH)}...` : post.content;
  return (
    <div className="relative">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="min-h-11 rounded-md px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        Share · {post.shares}
      </button>
      {open && (
        <div
          role="menu"
          aria-label="Share this post"
          className="absolute right-0 z-10 mt-1 w-48 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <ShareLinks
            url={`${window.location.origin}/posts/${post.id}`}
            title={`${post.author.name}: ${text}`}
            buttonRole="menuitem"
            buttonClassName="block min-h-11 w-full rounded px-3 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
            networkPrefix="Share on "
            onShared={() => {
              onShared();
              setOpen(false);
            }}
          />
        </div>
      )}
    </div>
  );
}

/**
 * A post in the feed or on its own page. `viewer` is null for a visitor (the page of a public post): they read and
 * share. The author and staff have the post's menu (edit, history, delete; staff pin).
 */
export function PostCard({
  post,
  viewer,
  onlineIds,
  openComments = false,
  onDeleted,
}: {
  post: Post;
  viewer: CurrentUser | null;
  onlineIds: ReadonlySet<string>;
  openComments?: boolean;
  onDeleted?: () => void;
}) {
  const { toast } = useToast();
  const postAction = usePostAction();
  const act = (action: PostAction, onSuccess?: () => void) =>
    postAction.mutate(
      { post, action },
      {
        onSuccess,
        onError: (error) =>
          toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'destructive' }),
      },
    );
  const like = () => act(post.likedByMe ? 'unlike' : 'like');
  const [commentsOpen, setCommentsOpen] = useState(openComments);
  const [editing, setEditing] = useState(false);

  return (
    <article
      id={`post-${post.id}`}
      aria-label={`Post by ${post.author.name}`}
      className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="flex items-start gap-3">
        <MemberLink id={post.author.id} name={post.author.name} decorative>
          <Avatar name={post.author.name} src={post.author.avatar} online={onlineIds.has(post.author.id)} />
        </MemberLink>
        <div className="min-w-0 flex-1">
          <p className="font-semibold">
            <MemberLink id={post.author.id} name={post.author.name} />{' '}
            <span className={`text-xs font-medium capitalize ${ROLE_COLOUR[post.author.role] ?? ''}`}>{post.author.role}</span>
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <Link to="/posts/$id" params={{ id: post.id }} className="hover:underline">
              <time dateTime={post.createdAt} title={new Date(post.createdAt).toLocaleString()}>
                {relativeTime(post.createdAt)}
              </time>
            </Link>
            {post.editedAt && (
              <>
                {' · '}
                <span title={`Edited ${new Date(post.editedAt).toLocaleString()}`}>Edited</span>
              </>
            )}
            {post.pendingRevision && (
              <>
                {' · '}
                <span className="font-semibold text-amber-800 dark:text-amber-300">Edit awaiting review</span>
              </>
            )}
          </p>
        </div>
        {post.isPinned && <Badge variant="default">Pinned</Badge>}
        {post.status === 'pending' && <Badge variant="outline">Pending</Badge>}
        {post.status === 'rejected' && <Badge variant="destructive">Rejected</Badge>}
        {viewer && canChangePost(post, viewer) && (
          <PostMenu post={post} viewer={viewer} onEdit={() => setEditing(true)} onDeleted={onDeleted} />
        )}
      </header>
      {editing && viewer ? (
        <PostEditForm post={post} viewer={viewer} onDone={() => setEditing(false)} />
      ) : (
        <p className="mt-3 break-words whitespace-pre-wrap">{post.content}</p>
      )}
      {post.status === 'rejected' && post.rejectionReason && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-400">Reason: {post.rejectionReason}</p>
      )}
      {/* While it is edited, the form holds the tags. */}
      {!editing && <Media post={post} />}
      {!editing && post.tags.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
          {post.tags.map((tag) => (
            <li key={tag} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700 dark:bg-slate-800 dark:text-amber-accent">
              #{tag}
            </li>
          ))}
        </ul>
      )}
      {post.isApproved && (
        <footer className="mt-3 flex flex-wrap items-center gap-1 border-t border-slate-100 pt-2 text-sm dark:border-slate-800">
          {viewer ? (
            <button
              type="button"
              aria-pressed={post.likedByMe}
              onClick={like}
              className={`min-h-11 rounded-md px-3 hover:bg-slate-100 dark:hover:bg-slate-800 ${post.likedByMe ? 'font-semibold text-red-600' : ''}`}
            >
              {post.likedByMe ? '♥' : '♡'} Like · {post.likes}
            </button>
          ) : (
            <span className="min-h-11 px-3 leading-[2.75rem]">
              <span aria-hidden="true">♡</span> {post.likes}
              <span className="sr-only"> likes</span>
            </span>
          )}
          <button
            type="button"
            aria-expanded={commentsOpen}
            aria-controls={`comments-${post.id}`}
            onClick={() => setCommentsOpen(!commentsOpen)}
            className={`min-h-11 rounded-md px-3 hover:bg-slate-100 dark:hover:bg-slate-800 ${commentsOpen ? 'font-semibold' : ''}`}
          >
            Comments · {post.comments}
          </button>
          <ShareControl post={post} onShared={() => act('share')} />
          {viewer && <BookmarkButton kind="post" id={post.id} label={`post by ${post.author.name}`} />}
          {viewer && viewer.id !== post.author.id && (
            <ReasonDialog
              label="Report"
              triggerClassName="ml-auto min-h-11 rounded-md px-3 text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"
              title="Report this post?"
              description="Staff will look at it. Tell them what is wrong, if you like: only staff see it."
              fieldLabel="What is wrong with it"
              confirmLabel="Report post"
              onConfirm={(reason) =>
                postAction.mutateAsync({ post, action: 'report', reason }).then(
                  () => toast({ title: 'Post reported', description: 'Thank you. Staff will review it.' }),
                  (error: unknown) => {
                    toast({
                      title: 'Error',
                      description: errorMessage(error, 'Something went wrong. Please try again.'),
                      variant: 'destructive',
                    });
                    throw error;
                  },
                )
              }
            />
          )}
        </footer>
      )}
      {post.isApproved && commentsOpen && (
        <div id={`comments-${post.id}`}>
          <CommentThread targetType="post" targetId={post.id} viewer={viewer} />
        </div>
      )}
    </article>
  );
}
