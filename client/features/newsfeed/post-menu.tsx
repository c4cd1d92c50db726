/**
 * A post's own menu, for its author and staff (docs/domain/feed.md#editing): Edit, History, Delete (after a
 * confirmation), and for staff Pin or Unpin. react-aria's menu: arrow keys move, Enter chooses, Escape closes and
 * gives focus back to the button.
 */
import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { DialogActions, DialogWindow } from '../../components/dialog-window';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { isStaff, type CurrentUser } from '../../lib/current-user';
import { relativeTime } from '../../lib/relative-time';
import { usePostChanges, usePostRevisions, type Post, type PostRevision } from './api';

type Choice = 'edit' | 'history' | 'pin' | 'delete';

const ITEM =
  'flex min-h-11 cursor-pointer items-center rounded px-3 text-sm outline-none data-focused:bg-slate-100 dark:data-focused:bg-slate-800';

/** Who may open the menu: the author and staff. */
export const canChangePost = (post: Post, viewer: CurrentUser | null) =>
  viewer !== null && (viewer.id === post.author.id || isStaff(viewer.role));

export function PostMenu({
  post,
  viewer,
  onEdit,
  onDeleted,
}: {
  post: Post;
  viewer: CurrentUser;
  onEdit: () => void;
  onDeleted?: (() => void) | undefined;
}) {
  const { toast } = useToast();
  const changes = usePostChanges();
  const [open, setOpen] = useState<'history' | 'delete' | null>(null);
  const staff = isStaff(viewer.role);
  const failed = (error: unknown) =>
    toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'destructive' });

  const choose = (choice: Choice) => {
    if (choice === 'edit') onEdit();
    else if (choice === 'pin')
      changes.pin.mutate(
        { id: post.id, pinned: !post.isPinned },
        {
          onSuccess: (changed) =>
            toast({
              title: changed.isPinned ? 'Post pinned' : 'Post unpinned',
              description: changed.isPinned ? 'It shows at the top of the feed.' : 'It takes its place in the feed again.',
            }),
          onError: failed,
        },
      );
    else setOpen(choice);
  };

  return (
    <>
      <MenuTrigger>
        <AriaButton
          aria-label={`Actions for the post by ${post.author.name}`}
          className="-mt-1 -mr-2 flex min-h-11 min-w-11 items-center justify-center rounded-md text-xl leading-none text-slate-600 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 dark:text-slate-400 dark:hover:bg-slate-800"
        >
          <span aria-hidden="true">⋯</span>
        </AriaButton>
        <Popover
          placement="bottom end"
          className="min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <Menu className="outline-none" onAction={(key) => choose(key as Choice)}>
            <MenuItem id="edit" className={ITEM}>
              Edit
            </MenuItem>
            <MenuItem id="history" className={ITEM}>
              History
            </MenuItem>
            {staff && post.isApproved && (
              <MenuItem id="pin" className={ITEM}>
                {post.isPinned ? 'Unpin' : 'Pin to top'}
              </MenuItem>
            )}
            <MenuItem id="delete" className={`${ITEM} text-red-700 dark:text-red-400`}>
              Delete
            </MenuItem>
          </Menu>
        </Popover>
      </MenuTrigger>
      {open === 'delete' && (
        <DialogWindow onClose={() => setOpen(null)} role="alertdialog" title="Delete this post?">
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            It leaves the feed for everyone, with its likes and comments. This cannot be undone.
          </p>
          <DialogActions
            className="mt-6"
            onCancel={() => setOpen(null)}
            destructive
            isDisabled={changes.remove.isPending}
            confirmLabel={changes.remove.isPending ? 'Deleting...' : 'Delete post'}
            onConfirm={() =>
              changes.remove.mutate(post.id, {
                onSuccess: () => {
                  setOpen(null);
                  toast({ title: 'Post deleted' });
                  onDeleted?.();
                },
                onError: failed,
              })
            }
          />
        </DialogWindow>
      )}
      {open === 'history' && <HistoryDialog post={post} onClose={() => setOpen(null)} />}
    </>
  );
}

const STATUS_LABEL: Record<PostRevision['status'], string> = {
  original: 'Original',
  applied: 'Edit',
  pending: 'Awaiting review',
  rejected: 'Edit not approved',
  replaced: 'Replaced before review',
};

/** The post's texts, newest first: which one everyone sees, which waits, which staff turned down. */
function HistoryDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const revisions = usePostRevisions(post.id, true);
  return (
    <DialogWindow
      onClose={onClose}
      title="History of this post"
      titleClassName="px-6 pt-6 text-lg font-bold"
      width="lg"
      bare
      className="flex max-h-[85vh] flex-col"
    >
      <div className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
        {revisions.isPending ? (
          <p role="status">Loading the history...</p>
        ) : revisions.isError ? (
          <p role="alert">{errorMessage(revisions.error, 'The history could not be loaded. Please try again.')}</p>
        ) : (
          <ol aria-label="Versions, newest first" className="space-y-3">
            {revisions.data.items.map((revision) => (
              <li
                key={revision.id}
                className={`rounded-lg border p-3 ${revision.current ? 'border-brand-600 dark:border-amber-accent' : 'border-slate-200 dark:border-slate-700'}`}
              >
                <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600 dark:text-slate-400">
                  <span className="font-semibold text-slate-900 dark:text-slate-100">{STATUS_LABEL[revision.status]}</span>
                  {revision.current && (
                    <span className="rounded-full bg-brand-50 px-2 text-brand-700 dark:bg-slate-800 dark:text-amber-accent">Shown now</span>
                  )}
                  <span>
                    by {revision.editedBy.name} ·{' '}
                    <time dateTime={revision.createdAt} title={new Date(revision.createdAt).toLocaleString()}>
                      {relativeTime(revision.createdAt)}
                    </time>
                  </span>
                </p>
                <p className="mt-2 text-sm break-words whitespace-pre-wrap">{revision.content}</p>
                {revision.tags.length > 0 && (
                  <p className="mt-1 text-xs text-brand-700 dark:text-amber-accent">{revision.tags.map((tag) => `#${tag}`).join(' ')}</p>
                )}
                {revision.mediaUrl && <p className="mt-1 truncate text-xs text-slate-600 dark:text-slate-400">{revision.mediaUrl}</p>}
              </li>
            ))}
          </ol>
        )}
      </div>
      <div className="flex justify-end border-t border-slate-200 px-6 py-3 dark:border-slate-800">
        <Button variant="secondary" onPress={onClose} autoFocus>
          Close
        </Button>
      </div>
    </DialogWindow>
  );
}
