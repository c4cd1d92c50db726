/**
 * The comments under a feed post or a blog post (docs/domain/comments.md): oldest first, replies one level deep
 * under the comment they answer, a removed comment kept as a line. New comments arrive live: `comments:changed`
 * refetches the thread (client/lib/socket.ts). Text that the server refuses stays in its box with the reason.
 */
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment } from '../../shared/comments/schemas';
import type { CommentTargetType } from '../../shared/comments/constants';
import { COMMENT_MAX_LENGTH } from '../../shared/comments/constants';
import { answer, api, errorMessage } from '../lib/api';
import type { CurrentUser } from '../lib/current-user';
import { LoadMore, usePages } from '../lib/paged-list';
import { operationKey } from '../lib/query-keys';
import { relativeTime } from '../lib/relative-time';
import { Avatar } from './ui/avatar';
import { useToast } from './ui/toast';
import { WritingBox } from './writing-box';
import { ReasonDialog } from './reason-dialog';
import { ROLE_COLOUR } from './ui/role-colour';
import { MemberLink } from './member-link';

/** The thread's operation: a feed post's or a blog post's comments. */
const threadPath = (targetType: CommentTargetType) => (targetType === 'post' ? '/api/posts/{id}/comments' : '/api/blog/{id}/comments');

function useCommentCommands(targetType: CommentTargetType, targetId: string) {
  const queryClient = useQueryClient();
  // The thread, and the target's count on its card or page.
  const refresh = () => queryClient.invalidateQueries({ queryKey: operationKey(targetType === 'post' ? '/api/posts' : '/api/blog') });
  const comment = (id: string) => ({ path: { id } });
  const write = useMutation({
    mutationFn: (body: { content: string; parentId?: string }) =>
      answer(api.POST(threadPath(targetType), { params: { path: { id: targetId } }, body })),
    onSuccess: refresh,
  });
  const edit = useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) =>
      answer(api.PATCH('/api/comments/{id}', { params: comment(id), body: { content } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => answer(api.DELETE('/api/comments/{id}', { params: comment(id) })),
    onSuccess: refresh,
  });
  const report = useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string | undefined }) =>
      answer(api.POST('/api/comments/{id}/report', { params: comment(id), body: reason ? { reason } : {} })),
  });
  return { write, edit, remove, report };
}
type Commands = ReturnType<typeof useCommentCommands>;

/** A comment's writing box: the label is the placeholder (a thread shows many boxes). */
function CommentBox(props: {
  label: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  return (
    <WritingBox
      {...props}
      placeholder={props.label}
      labelHidden
      rows={2}
      maxLength={COMMENT_MAX_LENGTH}
      emptyMessage="Comment cannot be empty"
      className="mt-2"
    />
  );
}

function CommentItem({
  comment,
  viewer,
  canWrite,
  commands,
  replying,
  onReply,
}: {
  comment: Comment;
  viewer: CurrentUser | null;
  canWrite: boolean;
  commands: Commands;
  replying?: boolean;
  onReply?: () => void;
}) {
  const { toast } = useToast();
  const [editing, setEditing] = useState(false);
  const own = viewer?.id === comment.author.id;
  const staff = viewer?.role === 'admin' || viewer?.role === 'staff';
  const failed = (error: unknown) =>
    toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'destructive' });
  if (comment.removed)
    return (
      <p id={`comment-${comment.id}`} className="py-2 text-sm text-slate-600 italic dark:text-slate-400">
        This comment was removed
      </p>
    );
  const action =
    'min-h-11 rounded-md px-2 text-xs font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800';
  return (
    <article id={`comment-${comment.id}`} aria-label={`Comment by ${comment.author.name}`} className="flex gap-2 py-2">
      <MemberLink id={comment.author.id} name={comment.author.name} decorative>
        <Avatar name={comment.author.name} src={comment.author.avatar} size="sm" />
      </MemberLink>
      <div className="min-w-0 flex-1">
        <p className="text-sm">
          <MemberLink id={comment.author.id} name={comment.author.name} className="font-semibold" />{' '}
          <span className={`text-xs font-medium capitalize ${ROLE_COLOUR[comment.author.role] ?? ''}`}>{comment.author.role}</span>{' '}
          <time
            dateTime={comment.createdAt}
            title={new Date(comment.createdAt).toLocaleString()}
            className="text-xs text-slate-600 dark:text-slate-400"
          >
            {relativeTime(comment.createdAt)}
          </time>
          {comment.editedAt && <span className="text-xs text-slate-600 dark:text-slate-400"> · edited</span>}
        </p>
        {editing ? (
          <CommentBox
            label="Edit your comment"
            submitLabel="Save"
            initial={comment.content}
            autoFocus
            onCancel={() => setEditing(false)}
            onSubmit={async (content) => {
              await commands.edit.mutateAsync({ id: comment.id, content });
              setEditing(false);
            }}
          />
        ) : (
          <p className="text-sm break-words whitespace-pre-wrap">{comment.content}</p>
        )}
        {!editing && viewer && (
          <div className="-ml-2 flex flex-wrap gap-1">
            {onReply && canWrite && (
              <button type="button" aria-expanded={replying} onClick={onReply} className={action}>
                Reply
              </button>
            )}
            {own && (
              <button type="button" onClick={() => setEditing(true)} className={action}>
                Edit
              </button>
            )}
            {(own || staff) && (
              <button
                type="button"
                onClick={() => {
                  if (window.confirm('Remove this comment? The thread will say it was removed.'))
                    commands.remove.mutate(comment.id, { onError: failed });
                }}
                className={action}
              >
                Remove
              </button>
            )}
            {!own && (
              <ReasonDialog
                label="Report"
                triggerClassName={action}
                title="Report this comment?"
                description="Staff will look at it. Tell them what is wrong, if you like: only staff see it."
                fieldLabel="What is wrong with it"
                confirmLabel="Report comment"
                onConfirm={(reason) =>
                  commands.report.mutateAsync({ id: comment.id, reason }).then(
                    () => toast({ title: 'Comment reported', description: 'Thank you. Staff will review it.' }),
                    (error: unknown) => {
                      failed(error);
                      throw error;
                    },
                  )
                }
              />
            )}
          </div>
        )}
      </div>
    </article>
  );
}

/** The thread of one post or blog post, with the box to join it. */
export function CommentThread({
  targetType,
  targetId,
  viewer,
}: {
  targetType: CommentTargetType;
  targetId: string;
  viewer: CurrentUser | null;
}) {
  const { list, items } = usePages(threadPath(targetType), { params: { path: { id: targetId } } });
  const commands = useCommentCommands(targetType, targetId);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const canWrite = viewer !== null && viewer.role !== 'subscriber';
  const { topLevel, replies } = useMemo(() => {
    const byParent = new Map<string, Comment[]>();
    for (const comment of items) if (comment.parentId) byParent.set(comment.parentId, [...(byParent.get(comment.parentId) ?? []), comment]);
    return { topLevel: items.filter((comment) => !comment.parentId), replies: byParent };
  }, [items]);

  return (
    <section aria-label="Comments" className="mt-2 border-t border-slate-100 pt-2 dark:border-slate-800">
      {list.isPending ? (
        <p className="py-2 text-sm text-slate-600 dark:text-slate-400">Loading comments...</p>
      ) : list.isError ? (
        <p className="py-2 text-sm text-red-700 dark:text-red-400">The comments could not be loaded. Please try again.</p>
      ) : topLevel.length === 0 ? (
        <p className="py-2 text-sm text-slate-600 dark:text-slate-400">No comments yet. {canWrite ? 'Start the conversation.' : ''}</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {topLevel.map((comment) => (
            <li key={comment.id}>
              <CommentItem
                comment={comment}
                viewer={viewer}
                canWrite={canWrite}
                commands={commands}
                replying={replyTo === comment.id}
                onReply={() => setReplyTo(replyTo === comment.id ? null : comment.id)}
              />
              {(replies.has(comment.id) || replyTo === comment.id) && (
                <ul
                  aria-label={`Replies to ${comment.removed ? 'a removed comment' : comment.author.name}`}
                  className="ml-10 border-l border-slate-200 pl-3 dark:border-slate-700"
                >
                  {replies.get(comment.id)?.map((reply) => (
                    <li key={reply.id}>
                      <CommentItem comment={reply} viewer={viewer} canWrite={canWrite} commands={commands} />
                    </li>
                  ))}
                  {replyTo === comment.id && (
                    <li>
                      <CommentBox
                        label={`Reply to ${comment.author.name}`}
                        submitLabel="Reply"
                        autoFocus
                        onCancel={() => setReplyTo(null)}
                        onSubmit={async (content) => {
                          await commands.write.mutateAsync({ content, parentId: comment.id });
                          setReplyTo(null);
                        }}
                      />
                    </li>
                  )}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} label="More comments" />
      {canWrite ? (
        <CommentBox label="Write a comment" submitLabel="Comment" onSubmit={(content) => commands.write.mutateAsync({ content })} />
      ) : viewer ? (
        <p className="py-2 text-sm text-slate-600 dark:text-slate-400">Subscribers can read comments but not write them.</p>
      ) : (
        <p className="py-2 text-sm text-slate-600 dark:text-slate-400">
          <a href="/login" className="font-medium text-brand-700 underline dark:text-amber-accent">
            Sign in
          </a>{' '}
          to join the conversation.
        </p>
      )}
    </section>
  );
}
