/**
 * A post's history for staff (docs/domain/blog.md#revisions): every save, newest first, with who saved it and when;
 * each can be previewed as it was saved and restored, after a confirmation, as a new save of the post.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DialogActions, DialogClose, DialogWindow } from '../../components/dialog-window';
import { QueryState } from '../../components/load-state';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';
import { operationKey } from '../../lib/query-keys';
import { restoreRevision, useRefreshBlog, useRevision, useRevisions, type BlogPost } from './api';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

type Summary = { id: string; at: string; author: { name: string }; title: string };

function Preview({ post, rev }: { post: BlogPost; rev: string }) {
  const revision = useRevision(post.id, rev);
  return (
    <QueryState query={revision} plain loading="Loading the revision..." failed="The revision could not be loaded. Please try again.">
      {({ title, excerpt, content, tags }) => (
        <section
          aria-label="Preview"
          className="mt-4 max-h-[50vh] overflow-y-auto rounded-lg border border-slate-200 p-4 dark:border-slate-700"
        >
          <h3 className="text-xl font-bold">{title}</h3>
          {excerpt && <p className="mt-2 text-slate-600 italic dark:text-slate-400">{excerpt}</p>}
          {/* Sanitised on the server when it was saved. */}
          <div className="blog-content mt-3 space-y-3 leading-relaxed" dangerouslySetInnerHTML={{ __html: content }} />
          {tags.length > 0 && <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">Tags: {tags.join(', ')}</p>}
        </section>
      )}
    </QueryState>
  );
}

function HistoryDialog({ post, onClose }: { post: BlogPost; onClose: () => void }) {
  const revisions = useRevisions(post.id);
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Summary | null>(null);
  const refreshBlog = useRefreshBlog();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const restore = useMutation({
    mutationFn: (rev: string) => restoreRevision(post.id, rev),
    onSuccess: async () => {
      await Promise.all([
        refreshBlog(),
        queryClient.invalidateQueries({ queryKey: operationKey('/api/admin/blog/{id}/revisions', { path: { id: post.id } }) }),
      ]);
      toast({ title: 'Revision restored', description: 'The post now reads as it did then, saved as a new revision.' });
      onClose();
    },
    onError: (error) =>
      toast({ title: 'The revision could not be restored', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const latest = revisions.data?.[0]?.id;

  return (
    <DialogWindow onClose={onClose} title={<>History of “{post.title}”</>} width="2xl" className="max-h-[95vh] overflow-y-auto">
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Every save of this post, newest first.</p>
      {confirming ? (
        <div role="alertdialog" aria-labelledby="restore-heading" className="mt-4 rounded-lg bg-amber-50 p-4 dark:bg-slate-800">
          <h3 id="restore-heading" className="font-semibold">
            Restore the revision of {when(confirming.at)}?
          </h3>
          <p className="mt-1 text-sm">
            The post’s title, excerpt, text and tags become as {confirming.author.name} saved them. Its address, cover and publication stay
            as they are, and the restore is kept as a new revision.
          </p>
          <DialogActions
            className="mt-3"
            onCancel={() => setConfirming(null)}
            onConfirm={() => restore.mutate(confirming.id)}
            isDisabled={restore.isPending}
            confirmLabel={restore.isPending ? 'Restoring...' : 'Restore'}
          />
        </div>
      ) : null}
      <QueryState
        query={revisions}
        plain
        className="mt-4"
        loading="Loading the history..."
        failed="The history could not be loaded. Please try again."
      >
        {(saves) =>
          saves.length === 0 ? (
            <p className="mt-4">No saves recorded yet.</p>
          ) : (
            <ul aria-label="Revisions" className="mt-4 divide-y divide-slate-200 dark:divide-slate-700">
              {saves.map((revision) => (
                <li key={revision.id} aria-label={`${when(revision.at)} by ${revision.author.name}`} className="py-3">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium break-words">{revision.title}</p>
                      <p className="text-sm text-slate-600 dark:text-slate-400">
                        <time dateTime={revision.at}>{when(revision.at)}</time> · {revision.author.name}
                        {revision.id === latest && ' · Current'}
                      </p>
                    </div>
                    <div className="flex gap-2">
                      <Button
                        variant="secondary"
                        aria-expanded={previewing === revision.id}
                        onPress={() => setPreviewing(previewing === revision.id ? null : revision.id)}
                      >
                        {previewing === revision.id ? 'Hide preview' : 'Preview'}
                      </Button>
                      {revision.id !== latest && (
                        <Button variant="secondary" onPress={() => setConfirming(revision)}>
                          Restore
                        </Button>
                      )}
                    </div>
                  </div>
                  {previewing === revision.id && <Preview post={post} rev={revision.id} />}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <DialogClose onClose={onClose} />
    </DialogWindow>
  );
}

/** The History button of a post in the management list, and its dialog. */
export function RevisionsButton({ post }: { post: BlogPost }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" onPress={() => setOpen(true)} aria-label={`History of ${post.title}`}>
        History
      </Button>
      {open && <HistoryDialog post={post} onClose={() => setOpen(false)} />}
    </>
  );
}
