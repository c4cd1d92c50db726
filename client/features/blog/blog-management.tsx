/** Blog management for staff, in the admin dashboard's blog tab: toggles, deletion and the create/edit dialogs. */
import { lazy, Suspense, useCallback, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { DialogActions, DialogWindow } from '../../components/dialog-window';
import { FormDialog } from '../../components/form-dialog';
import { CoverImagePicker } from '../../components/cover-image-picker';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { LoadMore } from '../../lib/paged-list';
import {
  deletePost,
  savePost,
  togglePost,
  uploadMedia,
  useRefreshBlog,
  useScheduleZone,
  useWrittenPosts,
  type BlogPost,
  type Toggle,
} from './api';
import { slugify } from '../../../shared/blog/slug';
import { scheduledTimeLabel, utcToZoned, zonedToUtc } from '../../../shared/blog/schedule-time';
import type { Media } from '../../../shared/media/schemas';
import { RevisionsButton } from './blog-revisions';
import { PANEL_LOOK } from '../../components/panel';

/** The rich-text editor: a chunk of its own, loaded when staff open a post, never by readers. */
const RichTextEditor = lazy(() => import('./editor/rich-text-editor'));

const TOGGLE_TOASTS: Record<Toggle, string> = {
  publish: 'Blog post published',
  unpublish: 'Blog post unpublished',
  pin: 'Blog post pinned',
  unpin: 'Blog post unpinned',
  feature: 'Blog post featured',
  unfeature: 'Blog post unfeatured',
};

const fieldClass = 'w-full rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900';
const NOT_A_PICTURE = 'Choose a picture: a JPEG, PNG, WebP or HEIC image.';

function PostDialog({ post, onClose }: { post: BlogPost | null; onClose: () => void }) {
  const refreshBlog = useRefreshBlog();
  const { toast } = useToast();
  const [title, setTitle] = useState(post?.title ?? '');
  const [excerpt, setExcerpt] = useState(post?.excerpt ?? '');
  const [content, setContent] = useState(post?.content ?? '');
  /** Empty on a new post: the address is made from the title. */
  const [slug, setSlug] = useState(post?.slug ?? '');
  const zone = useScheduleZone().data?.timeZone;
  /** The Schedule field's wall-clock time in the site's zone, once touched; empty for none. */
  const [scheduled, setScheduled] = useState<string | null>(null);
  const scheduleValue = scheduled ?? (post?.publishAt && zone ? utcToZoned(post.publishAt, zone) : '');
  /** The post's cover (`mediaId`): shown above it in the list and on its page. */
  const [cover, setCover] = useState<Media | null>(post?.media ?? null);
  const [uploadingCover, setUploadingCover] = useState(false);
  /** A picture uploading in the editor. */
  const [editorBusy, setEditorBusy] = useState(false);
  const uploading = uploadingCover || editorBusy;
  const editing = post !== null;

  const save = useMutation({
    mutationFn: () => {
      const wantedSlug = slug.trim() ? { slug: slug.trim() } : {};
      // Only what the writer touched: an untouched field leaves the schedule as it is; emptied, it takes it away.
      const publishAt =
        scheduled === null || !zone
          ? {}
          : { publishAt: scheduled ? zonedToUtc(scheduled, zone) : editing && post.publishAt ? null : undefined };
      return savePost({ title, excerpt, content, mediaId: cover?.id ?? null, ...wantedSlug, ...publishAt }, editing ? post.id : undefined);
    },
    onSuccess: () => {
      toast({ title: editing ? 'Blog post updated successfully' : 'Blog post created successfully' });
      void refreshBlog();
      onClose();
    },
    onError: (error) =>
      toast({
        title: editing ? 'Failed to update blog post' : 'Failed to create blog post',
        description: errorMessage(error, 'Please try again.'),
        variant: 'destructive',
      }),
  });
  const fieldErrors = save.error instanceof ApiError ? save.error.fields : {};

  const chooseCover = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setUploadingCover(true);
    try {
      const media = await uploadMedia(file);
      if (media.kind === 'image') setCover(media);
      else toast({ title: 'Could not use the file', description: NOT_A_PICTURE, variant: 'destructive' });
    } catch (error) {
      toast({ title: 'Could not upload the picture', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setUploadingCover(false);
    }
  };
  const onEditorBusy = useCallback((busy: boolean) => setEditorBusy(busy), []);

  return (
    <FormDialog
      onClose={onClose}
      title={editing ? 'Edit Blog Post' : 'Create Blog Post'}
      width="6xl"
      className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
      onSubmit={() => save.mutate()}
    >
      <div className="min-w-0 space-y-4">
        <label className="block text-sm font-medium">
          Title
          <input
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            aria-invalid={Boolean(fieldErrors.title)}
            className={`${fieldClass} mt-1 min-h-11`}
          />
          {fieldErrors.title && <span className="mt-1 block text-sm text-red-600 dark:text-red-400">{fieldErrors.title}</span>}
        </label>
        <div>
          <span id="blog-content-label" className="mb-1 block text-sm font-medium">
            Content
          </span>
          <Suspense
            fallback={
              <p
                role="status"
                className="min-h-64 rounded-md border border-slate-300 p-4 text-sm text-slate-600 dark:border-slate-600 dark:text-slate-400"
              >
                Loading the editor…
              </p>
            }
          >
            <RichTextEditor
              initialContent={post?.content ?? ''}
              onChange={setContent}
              onBusyChange={onEditorBusy}
              labelledBy="blog-content-label"
              describedBy="blog-content-hint"
              invalid={Boolean(fieldErrors.content)}
            />
          </Suspense>
          {fieldErrors.content && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{fieldErrors.content}</p>}
          <p id="blog-content-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            Markdown shortcuts work as you type: ## heading, - list, 1. numbered list, &gt; quote, ``` code.
          </p>
        </div>
      </div>
      <div className="space-y-4">
        <div>
          <label className="block text-sm font-medium">
            Slug
            <span className="mt-1 flex min-h-11 w-full items-center gap-1 rounded-md border border-slate-300 bg-white pl-3 focus-within:ring-2 focus-within:ring-amber-500 dark:border-slate-600 dark:bg-slate-900">
              <span aria-hidden="true" className="text-slate-500 dark:text-slate-400">
                /blog/
              </span>
              <input
                value={slug}
                onChange={(event) => setSlug(event.target.value)}
                placeholder={slugify(title || 'post')}
                aria-invalid={Boolean(fieldErrors.slug)}
                aria-describedby="blog-slug-hint"
                spellCheck={false}
                className="min-h-10 min-w-0 flex-1 bg-transparent pr-3 outline-none"
              />
            </span>
          </label>
          {/* Outside the label: inside, the hint would become part of the field's name. */}
          <p id="blog-slug-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            The post’s address. Left empty, it is made from the title; earlier addresses lead to the new one.
          </p>
          {fieldErrors.slug && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{fieldErrors.slug}</p>}
        </div>
        {!post?.isPublished && (
          <div>
            <label className="block text-sm font-medium">
              Schedule{zone ? ` (${zone.replace(/_/gu, ' ')} time)` : ''}
              <input
                type="datetime-local"
                value={scheduleValue}
                onChange={(event) => setScheduled(event.target.value)}
                disabled={!zone}
                aria-invalid={Boolean(fieldErrors.publishAt)}
                aria-describedby="blog-schedule-hint"
                className={`${fieldClass} mt-1 min-h-11`}
              />
            </label>
            <p id="blog-schedule-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              The post is published, and subscribers are mailed, at this time. Left empty, it stays a draft until you publish it.
            </p>
            {fieldErrors.publishAt && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{fieldErrors.publishAt}</p>}
          </div>
        )}
        <label className="block text-sm font-medium">
          Excerpt
          <textarea
            rows={3}
            value={excerpt}
            onChange={(event) => setExcerpt(event.target.value)}
            placeholder="Left empty, it is written from the content."
            className={`${fieldClass} mt-1`}
          />
        </label>
        <CoverImagePicker
          cover={cover}
          onChoose={(files) => void chooseCover(files)}
          onRemove={() => setCover(null)}
          uploading={uploadingCover}
          disabled={uploading}
          error={fieldErrors.mediaId}
          audioLabel="Recording shown with the post"
          className="space-y-1"
          labelClassName="block text-sm font-medium"
        />
      </div>
      <DialogActions
        className="lg:col-span-2"
        onCancel={onClose}
        isDisabled={!title.trim() || !content.trim() || save.isPending || uploading}
        confirmLabel={save.isPending ? (editing ? 'Updating...' : 'Creating...') : editing ? 'Update Post' : 'Create Post'}
      />
    </FormDialog>
  );
}

function DeleteDialog({ post, onClose }: { post: BlogPost; onClose: () => void }) {
  const refreshBlog = useRefreshBlog();
  const { toast } = useToast();
  const remove = useMutation({
    mutationFn: () => deletePost(post.id),
    onSuccess: async () => {
      await refreshBlog();
      toast({ title: 'Blog post deleted' });
      onClose();
    },
    onError: (error) =>
      toast({ title: 'Failed to delete blog post', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <DialogWindow onClose={onClose} role="alertdialog" title="Delete this blog post?">
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">“{post.title}” will be removed for everyone. This cannot be undone.</p>
      <DialogActions
        className="mt-6"
        onCancel={onClose}
        destructive
        onConfirm={() => remove.mutate()}
        isDisabled={remove.isPending}
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
      />
    </DialogWindow>
  );
}

export function BlogManagement() {
  const { list: posts, items: written } = useWrittenPosts();
  const zone = useScheduleZone().data?.timeZone ?? 'UTC';
  const refreshBlog = useRefreshBlog();
  const { toast } = useToast();
  const [editing, setEditing] = useState<BlogPost | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<BlogPost | null>(null);
  const toggle = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Toggle }) => togglePost(id, action),
    onSuccess: (_result, { action }) => {
      toast({ title: TOGGLE_TOASTS[action] });
      void refreshBlog();
    },
    onError: (error) =>
      toast({ title: 'The blog post could not be changed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const busy = (id: string) => toggle.isPending && toggle.variables.id === id;

  return (
    <section aria-label="Blog management" className="space-y-4">
      <div className="flex justify-end">
        <Button onPress={() => setEditing(null)}>New Blog Post</Button>
      </div>
      {posts.isPending ? (
        <p role="status">Loading blog posts...</p>
      ) : posts.isError ? (
        <p role="alert">The blog posts could not be loaded.</p>
      ) : written.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
          <p className="font-medium">No blog posts yet</p>
          <p className="text-sm text-slate-600 dark:text-slate-400">Create your first blog post to get started</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {written.map((post) => (
            <li key={post.id} aria-label={post.title} className={PANEL_LOOK}>
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-semibold">{post.title}</h3>
                <Badge variant={post.isPublished ? 'secondary' : 'outline'}>
                  {post.isPublished ? 'Published' : post.publishAt ? 'Scheduled' : 'Draft'}
                </Badge>
                {post.isPinned && <Badge>Pinned</Badge>}
                {post.isFeatured && <Badge variant="secondary">Featured</Badge>}
              </div>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {post.author.name} · {new Date(post.createdAt).toLocaleDateString()} · <span className="break-all">/blog/{post.slug}</span>
              </p>
              {!post.isPublished && post.publishAt && (
                <p className="mt-1 text-sm font-medium text-amber-800 dark:text-amber-300">
                  Scheduled for {scheduledTimeLabel(post.publishAt, zone)}
                </p>
              )}
              <p className="mt-2 text-sm">{post.excerpt}</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  isDisabled={busy(post.id)}
                  onPress={() => toggle.mutate({ id: post.id, action: post.isPublished ? 'unpublish' : 'publish' })}
                >
                  {post.isPublished ? 'Unpublish' : 'Publish'}
                </Button>
                <Button
                  variant="secondary"
                  isDisabled={busy(post.id)}
                  onPress={() => toggle.mutate({ id: post.id, action: post.isPinned ? 'unpin' : 'pin' })}
                >
                  {post.isPinned ? 'Unpin' : 'Pin'}
                </Button>
                <Button
                  variant="secondary"
                  isDisabled={busy(post.id)}
                  onPress={() => toggle.mutate({ id: post.id, action: post.isFeatured ? 'unfeature' : 'feature' })}
                >
                  {post.isFeatured ? 'Unfeature' : 'Feature'}
                </Button>
                <Button variant="ghost" onPress={() => setEditing(post)}>
                  Edit
                </Button>
                <RevisionsButton post={post} />
                <Button variant="ghost" className="text-red-700 dark:text-red-400" onPress={() => setDeleting(post)}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={posts} label="Load more posts" />
      {editing !== undefined && <PostDialog post={editing} onClose={() => setEditing(undefined)} />}
      {deleting && <DeleteDialog post={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}
