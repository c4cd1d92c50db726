/** Blog management for staff, in the admin dashboard's blog tab: toggles, deletion and the create/edit dialogs. */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button as AriaButton, Dialog, FileTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { CoverImagePicker, PICTURE_TYPES } from '../../components/cover-image-picker';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { LoadMore } from '../../lib/paged-list';
import {
  deletePost,
  mediaFile,
  pictureSize,
  savePost,
  togglePost,
  uploadMedia,
  usePreview,
  useRefreshBlog,
  useScheduleZone,
  useWrittenPosts,
  type BlogPost,
  type Toggle,
} from './api';
import { slugify } from '../../../shared/blog/slug';
import { scheduledTimeLabel, utcToZoned, zonedToUtc } from '../../../shared/blog/schedule-time';
import { altFromFileName, applyFormat, insertImage, isAllowedLink, type Edit, type Format, type InlineImage } from './formatting';
import type { Media } from '../../../shared/media/schemas';
import { useDebounced } from '../../lib/use-debounced';

const TOGGLE_TOASTS: Record<Toggle, string> = {
  publish: 'Blog post published',
  unpublish: 'Blog post unpublished',
  pin: 'Blog post pinned',
  unpin: 'Blog post unpinned',
  feature: 'Blog post featured',
  unfeature: 'Blog post unfeatured',
};

/** How long typing must pause before the preview asks the server again. */
const PREVIEW_DELAY_MS = 300;

const fieldClass = 'w-full rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900';

const TOOLBAR: { format: Format; label: string; key?: string }[] = [
  { format: 'heading', label: 'Heading' },
  { format: 'subheading', label: 'Subheading' },
  { format: 'paragraph', label: 'Paragraph' },
  { format: 'bold', label: 'Bold', key: 'b' },
  { format: 'italic', label: 'Italic', key: 'i' },
  { format: 'link', label: 'Link', key: 'k' },
  { format: 'bulleted', label: 'Bulleted list' },
  { format: 'numbered', label: 'Numbered list' },
  { format: 'quote', label: 'Quote' },
];
const SHORTCUTS = new Map(TOOLBAR.filter((tool) => tool.key).map((tool) => [tool.key!, tool.format]));
const NOT_A_PICTURE = 'Choose a picture: a JPEG, PNG, WebP or HEIC image.';
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** What the post will look like once saved: the server sanitises the draft exactly as a save would. */
function LivePreview({ title, excerpt, content }: { title: string; excerpt: string; content: string }) {
  const draft = useDebounced({ excerpt, content }, PREVIEW_DELAY_MS);
  const preview = usePreview(draft);
  const imagesWithoutAlt = useMemo(
    () =>
      preview.data?.content
        ? new DOMParser().parseFromString(preview.data.content, 'text/html').querySelectorAll('img:not([alt])').length
        : 0,
    [preview.data],
  );
  return (
    <section
      aria-labelledby="blog-preview-heading"
      className="flex min-h-0 flex-col rounded-lg border border-slate-200 dark:border-slate-700"
    >
      <h3
        id="blog-preview-heading"
        className="flex items-center justify-between border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-700"
      >
        Preview
        {preview.isFetching && <span className="text-xs font-normal text-slate-500 dark:text-slate-400">Updating…</span>}
      </h3>
      {/* Focusable, so a keyboard can scroll it once pictures make it longer than its box. */}
      <div
        data-testid="blog-preview"
        tabIndex={0}
        className="max-h-[60vh] overflow-y-auto px-4 py-3 outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
      >
        <p className="text-2xl font-bold">{title || <span className="text-slate-400">Untitled</span>}</p>
        {preview.isError ? (
          <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
            {errorMessage(preview.error, 'The preview could not be made.')}
          </p>
        ) : preview.data ? (
          <>
            {preview.data.excerpt && (
              <blockquote className="mt-3 border-l-4 border-amber-accent pl-3 text-slate-700 italic dark:text-slate-300">
                {preview.data.excerpt}
                {preview.data.excerptGenerated && (
                  <span className="ml-2 text-xs not-italic text-slate-500 dark:text-slate-400">(written from the content)</span>
                )}
              </blockquote>
            )}
            {preview.data.content ? (
              // Sanitised by the server with the same allow-list as a save.
              <div className="blog-content mt-4 space-y-3 leading-relaxed" dangerouslySetInnerHTML={{ __html: preview.data.content }} />
            ) : (
              <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
                {content.trim() ? 'Nothing of this content would be kept.' : 'The content appears here as you write.'}
              </p>
            )}
          </>
        ) : null}
      </div>
      {imagesWithoutAlt > 0 && (
        <p role="note" className="border-t border-slate-200 px-4 py-2 text-sm text-amber-800 dark:border-slate-700 dark:text-amber-300">
          {imagesWithoutAlt === 1 ? '1 image has' : `${imagesWithoutAlt} images have`} no alt text: add alt="…" describing it for readers
          who cannot see it.
        </p>
      )}
    </section>
  );
}

function LinkField({ onAdd, onCancel }: { onAdd: (href: string) => void; onCancel: () => void }) {
  const [href, setHref] = useState('https://');
  const valid = isAllowedLink(href);
  const add = () => valid && onAdd(href);
  return (
    <div className="mb-2 flex flex-wrap items-end gap-2 rounded-md border border-slate-200 p-2 dark:border-slate-700">
      <label className="flex-1 text-sm font-medium">
        Link address
        <input
          autoFocus
          type="url"
          value={href}
          onChange={(event) => setHref(event.target.value)}
          onKeyDown={enterOrEscape(add, onCancel)}
          aria-describedby="blog-link-hint"
          className={`${fieldClass} mt-1 min-h-11`}
        />
        <span id="blog-link-hint" className="mt-1 block text-xs font-normal text-slate-500 dark:text-slate-400">
          A web address (https://…) or mailto: address.
        </span>
      </label>
      <Button variant="secondary" onPress={add} isDisabled={!valid}>
        Add link
      </Button>
      <Button variant="ghost" onPress={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

/** A field of the editor's small forms: Enter adds what it holds, Escape closes the form (and only the form). */
const enterOrEscape = (add: () => void, onCancel: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === 'Enter') {
    event.preventDefault();
    add();
  }
  if (event.key === 'Escape') {
    event.stopPropagation();
    onCancel();
  }
};

/** The uploaded picture about to go in at the cursor: a look at it, and its alt text (the file name to start with). */
function ImageField({ image, onAdd, onCancel }: { image: InlineImage; onAdd: (image: InlineImage) => void; onCancel: () => void }) {
  const [alt, setAlt] = useState(image.alt);
  const add = () => onAdd({ ...image, alt });
  return (
    <div
      role="group"
      aria-label="Picture to insert"
      className="mb-2 flex flex-wrap items-end gap-2 rounded-md border border-slate-200 p-2 dark:border-slate-700"
    >
      <img src={image.src} width={image.width} height={image.height} alt="" className="h-16 w-auto rounded object-cover" />
      <label className="min-w-48 flex-1 text-sm font-medium">
        Alt text
        <input
          autoFocus
          value={alt}
          onChange={(event) => setAlt(event.target.value)}
          onKeyDown={enterOrEscape(add, onCancel)}
          aria-describedby="blog-alt-hint"
          className={`${fieldClass} mt-1 min-h-11`}
        />
        <span id="blog-alt-hint" className="mt-1 block text-xs font-normal text-slate-500 dark:text-slate-400">
          What the picture shows, for readers who cannot see it.
        </span>
      </label>
      <Button variant="secondary" onPress={add}>
        Add image
      </Button>
      <Button variant="ghost" onPress={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

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
  const [askingForLink, setAskingForLink] = useState(false);
  /** The post's cover (`mediaId`): shown above it in the list and on its page. */
  const [cover, setCover] = useState<Media | null>(post?.media ?? null);
  const [uploading, setUploading] = useState<'cover' | 'inline' | null>(null);
  const [pendingImage, setPendingImage] = useState<InlineImage | null>(null);
  const contentBox = useRef<HTMLTextAreaElement>(null);
  const selection = useRef<{ start: number; end: number }>({ start: 0, end: 0 });
  const nextSelection = useRef<Edit | null>(null);
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

  // After a format is applied, select what the author will most likely type over next.
  useLayoutEffect(() => {
    const edit = nextSelection.current;
    const box = contentBox.current;
    if (!edit || !box) return;
    nextSelection.current = null;
    box.focus();
    box.setSelectionRange(edit.selectionStart, edit.selectionEnd);
  }, [content]);

  // A textarea keeps its selection when it loses focus, so the link field can take focus meanwhile.
  const rememberSelection = () => {
    const box = contentBox.current;
    if (box) selection.current = { start: box.selectionStart, end: box.selectionEnd };
  };
  const format = (kind: Format, href?: string) => {
    const { start, end } = selection.current;
    const edit = applyFormat(content, start, end, kind, href);
    nextSelection.current = edit;
    setContent(edit.content);
  };
  const choose = (kind: Format) => {
    rememberSelection();
    if (kind === 'link') setAskingForLink(true);
    else format(kind);
  };
  /** Uploads the chosen picture; null when it is refused (the toast says why). */
  const uploadPicture = async (files: FileList | null, purpose: 'cover' | 'inline'): Promise<{ media: Media; file: File } | null> => {
    const file = files?.[0];
    if (!file) return null;
    setUploading(purpose);
    try {
      const media = await uploadMedia(file);
      if (media.kind !== 'image') {
        toast({ title: 'Could not use the file', description: NOT_A_PICTURE, variant: 'destructive' });
        return null;
      }
      return { media, file };
    } catch (error) {
      toast({ title: 'Could not upload the picture', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
      return null;
    } finally {
      setUploading(null);
    }
  };
  const chooseInlineImage = async (files: FileList | null) => {
    setAskingForLink(false);
    const uploaded = await uploadPicture(files, 'inline');
    if (!uploaded) return;
    // The blog's own size (1600 wide, never upscaled); its width and height as the file has them.
    const src = mediaFile(uploaded.media, 'blog.webp');
    const size = await pictureSize(src).catch(() => ({ width: uploaded.media.width, height: uploaded.media.height }));
    setPendingImage({ src, ...size, alt: altFromFileName(uploaded.file.name) });
  };
  const addImage = (image: InlineImage) => {
    setPendingImage(null);
    const { start, end } = selection.current;
    const edit = insertImage(content, start, end, image);
    nextSelection.current = edit;
    setContent(edit.content);
  };
  const chooseCover = async (files: FileList | null) => {
    const uploaded = await uploadPicture(files, 'cover');
    if (uploaded) setCover(uploaded.media);
  };

  const onContentKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const kind = (isMac ? event.metaKey : event.ctrlKey) && !event.altKey ? SHORTCUTS.get(event.key.toLowerCase()) : undefined;
    if (!kind) return;
    event.preventDefault();
    choose(kind);
  };

  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => !open && onClose()}
      className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/40 p-4"
    >
      <Modal className="w-full max-w-6xl rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
        <Dialog className="outline-none">
          <Heading slot="title" className="text-xl font-bold">
            {editing ? 'Edit Blog Post' : 'Create Blog Post'}
          </Heading>
          <form
            className="mt-4 grid gap-6 lg:grid-cols-2"
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate();
            }}
          >
            <div className="space-y-4">
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
                uploading={uploading === 'cover'}
                disabled={uploading !== null}
                error={fieldErrors.mediaId}
                audioLabel="Recording shown with the post"
                className="space-y-1"
                labelClassName="block text-sm font-medium"
              />
              <div>
                <div role="toolbar" aria-label="Formatting" aria-controls="blog-content" className="mb-1 flex flex-wrap gap-1">
                  {TOOLBAR.map((tool) => (
                    <button
                      key={tool.format}
                      type="button"
                      title={tool.key ? `${tool.label} (${isMac ? '⌘' : 'Ctrl+'}${tool.key.toUpperCase()})` : tool.label}
                      // Keep the content box's selection: the button must not take focus on press.
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => choose(tool.format)}
                      className={`min-h-9 min-w-9 rounded border border-slate-300 px-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800 ${tool.format === 'bold' ? 'font-bold' : tool.format === 'italic' ? 'italic' : ''}`}
                    >
                      {tool.label}
                    </button>
                  ))}
                  <FileTrigger acceptedFileTypes={PICTURE_TYPES} onSelect={(files) => void chooseInlineImage(files)}>
                    <AriaButton
                      isDisabled={uploading !== null}
                      className="min-h-9 min-w-9 rounded border border-slate-300 px-2 text-sm outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-amber-500 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
                    >
                      {uploading === 'inline' ? 'Uploading…' : 'Insert image'}
                    </AriaButton>
                  </FileTrigger>
                </div>
                {pendingImage && (
                  <ImageField
                    image={pendingImage}
                    onAdd={addImage}
                    onCancel={() => {
                      setPendingImage(null);
                      contentBox.current?.focus();
                    }}
                  />
                )}
                {askingForLink && (
                  <LinkField
                    onAdd={(href) => {
                      setAskingForLink(false);
                      format('link', href);
                    }}
                    onCancel={() => {
                      setAskingForLink(false);
                      contentBox.current?.focus();
                    }}
                  />
                )}
                <label className="block text-sm font-medium">
                  Content
                  <textarea
                    id="blog-content"
                    ref={contentBox}
                    rows={8}
                    value={content}
                    onChange={(event) => setContent(event.target.value)}
                    onKeyDown={onContentKey}
                    // Where a picture goes in: the box keeps its selection while the file is chosen and uploaded.
                    onBlur={rememberSelection}
                    aria-invalid={Boolean(fieldErrors.content)}
                    aria-describedby="blog-content-hint"
                    className={`${fieldClass} mt-1 min-h-48 font-mono text-sm`}
                  />
                  {fieldErrors.content && <span className="mt-1 block text-sm text-red-600 dark:text-red-400">{fieldErrors.content}</span>}
                </label>
                <p id="blog-content-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  HTML: headings, paragraphs, bold, italic, links, lists, quotes, images (Insert image, or https addresses), tables.
                  Anything else is removed when saved.
                </p>
              </div>
              <div className="flex justify-end gap-2">
                <Button variant="ghost" onPress={onClose}>
                  Cancel
                </Button>
                <Button type="submit" isDisabled={!title.trim() || !content.trim() || save.isPending || uploading !== null}>
                  {save.isPending ? (editing ? 'Updating...' : 'Creating...') : editing ? 'Update Post' : 'Create Post'}
                </Button>
              </div>
            </div>
            <LivePreview title={title} excerpt={excerpt} content={content} />
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
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
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => !open && onClose()}
      className="fixed inset-0 z-40 flex items-center justify-center bg-black/40 p-4"
    >
      <Modal className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
        <Dialog role="alertdialog" className="outline-none">
          <Heading slot="title" className="text-lg font-bold">
            Delete this blog post?
          </Heading>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            “{post.title}” will be removed for everyone. This cannot be undone.
          </p>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="ghost" onPress={onClose}>
              Cancel
            </Button>
            <Button variant="destructive" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
              {remove.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
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
            <li
              key={post.id}
              aria-label={post.title}
              className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
            >
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
