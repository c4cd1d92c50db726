/** Blog management for staff, in the admin dashboard's blog tab: toggles and the create/edit dialogs. */
import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { apiRequest, errorMessage } from '../../lib/api';
import type { BlogPost } from './blog-pages';

const TOGGLE_TOASTS = {
  publish: 'Blog post published',
  unpublish: 'Blog post unpublished',
  pin: 'Blog post pinned',
  unpin: 'Blog post unpinned',
  feature: 'Blog post featured',
  unfeature: 'Blog post unfeatured',
} as const;
type Toggle = keyof typeof TOGGLE_TOASTS;

const fieldClass = 'w-full rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900';

/** Buttons that wrap the selection in the content box with allowed HTML. */
const FORMATS = [
  { label: 'Heading', before: '<h2>', after: '</h2>' },
  { label: 'Paragraph', before: '<p>', after: '</p>' },
  { label: 'Bold', before: '<strong>', after: '</strong>' },
  { label: 'Italic', before: '<em>', after: '</em>' },
  { label: 'Quote', before: '<blockquote>', after: '</blockquote>' },
  { label: 'List', before: '<ul>\n  <li>', after: '</li>\n</ul>' },
  { label: 'Link', before: '<a href="https://">', after: '</a>' },
];

function PostDialog({ post, onClose }: { post: BlogPost | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [title, setTitle] = useState(post?.title ?? '');
  const [excerpt, setExcerpt] = useState(post?.excerpt ?? '');
  const [content, setContent] = useState(post?.content ?? '');
  const contentBox = useRef<HTMLTextAreaElement>(null);
  const editing = post !== null;

  const save = useMutation({
    mutationFn: () =>
      editing ? apiRequest('PATCH', `/api/blog/${post.id}`, { title, excerpt, content }) : apiRequest('POST', '/api/blog', { title, excerpt, content, isPublished: false, isPinned: false, isFeatured: false }),
    onSuccess: () => {
      toast({ title: editing ? 'Blog post updated successfully' : 'Blog post created successfully' });
      void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('/blog') });
      onClose();
    },
    onError: (error) => toast({ title: editing ? 'Failed to update blog post' : 'Failed to create blog post', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });

  const format = (before: string, after: string) => {
    const box = contentBox.current;
    if (!box) return;
    const { selectionStart, selectionEnd } = box;
    setContent(content.slice(0, selectionStart) + before + content.slice(selectionStart, selectionEnd) + after + content.slice(selectionEnd));
    box.focus();
  };

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && onClose()} className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/40 p-4">
      <Modal className="w-full max-w-3xl rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
        <Dialog className="outline-none">
          <Heading slot="title" className="text-xl font-bold">
            {editing ? 'Edit Blog Post' : 'Create Blog Post'}
          </Heading>
          <form
            className="mt-4 space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate();
            }}
          >
            <label className="block text-sm font-medium">
              Title
              <input value={title} onChange={(event) => setTitle(event.target.value)} className={`${fieldClass} mt-1 min-h-11`} />
            </label>
            <label className="block text-sm font-medium">
              Excerpt
              <textarea rows={3} value={excerpt} onChange={(event) => setExcerpt(event.target.value)} placeholder="Left empty, it is written from the content." className={`${fieldClass} mt-1`} />
            </label>
            <div>
              <div role="toolbar" aria-label="Formatting" className="mb-1 flex flex-wrap gap-1">
                {FORMATS.map((f) => (
                  <button key={f.label} type="button" onClick={() => format(f.before, f.after)} className="min-h-9 rounded border border-slate-300 px-2 text-xs dark:border-slate-600">
                    {f.label}
                  </button>
                ))}
              </div>
              <label className="block text-sm font-medium">
                Content
                <textarea ref={contentBox} rows={8} value={content} onChange={(event) => setContent(event.target.value)} className={`${fieldClass} mt-1 font-mono text-sm`} />
              </label>
            </div>
            <details>
              <summary className="cursor-pointer text-sm font-medium">Preview</summary>
              {/* A sandboxed frame: the author's draft never runs in the site's own page. */}
              <iframe title="Preview" sandbox="" srcDoc={`<body style="font-family:system-ui;padding:8px">${content}</body>`} className="mt-2 h-64 w-full rounded border border-slate-200 bg-white" />
            </details>
            <div className="flex justify-end gap-2">
              <Button variant="ghost" onPress={onClose}>
                Cancel
              </Button>
              <Button type="submit" isDisabled={!title.trim() || !content.trim() || save.isPending}>
                {save.isPending ? (editing ? 'Updating...' : 'Creating...') : editing ? 'Update Post' : 'Create Post'}
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

export function BlogManagement() {
  const posts = useQuery<BlogPost[]>({ queryKey: ['/api/admin/blog'] });
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [editing, setEditing] = useState<BlogPost | null | undefined>(undefined);
  const toggle = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Toggle }) => apiRequest('POST', `/api/blog/${id}/${action}`),
    onSuccess: (_result, { action }) => {
      toast({ title: TOGGLE_TOASTS[action] });
      void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('/blog') });
    },
    onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });

  return (
    <section aria-label="Blog management" className="space-y-4">
      <div className="flex justify-end">
        <Button onPress={() => setEditing(null)}>New Blog Post</Button>
      </div>
      {posts.isPending ? (
        <p role="status">Loading blog posts...</p>
      ) : posts.isError ? (
        <p role="alert">The blog posts could not be loaded.</p>
      ) : posts.data.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
          <p className="font-medium">No blog posts yet</p>
          <p className="text-sm text-slate-600 dark:text-slate-400">Create your first blog post to get started</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {posts.data.map((post) => (
            <li key={post.id} aria-label={post.title} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-semibold">{post.title}</h3>
                <Badge variant={post.isPublished ? 'secondary' : 'outline'}>{post.isPublished ? 'Published' : 'Draft'}</Badge>
                {post.isPinned && <Badge>Pinned</Badge>}
                {post.isFeatured && <Badge variant="secondary">Featured</Badge>}
              </div>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {post.author.name} · {new Date(post.createdAt).toLocaleDateString()}
              </p>
              <p className="mt-2 text-sm">{post.excerpt}</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button variant="secondary" onPress={() => toggle.mutate({ id: post.id, action: post.isPublished ? 'unpublish' : 'publish' })}>
                  {post.isPublished ? 'Unpublish' : 'Publish'}
                </Button>
                <Button variant="secondary" onPress={() => toggle.mutate({ id: post.id, action: post.isPinned ? 'unpin' : 'pin' })}>
                  {post.isPinned ? 'Unpin' : 'Pin'}
                </Button>
                <Button variant="secondary" onPress={() => toggle.mutate({ id: post.id, action: post.isFeatured ? 'unfeature' : 'feature' })}>
                  {post.isFeatured ? 'Unfeature' : 'Feature'}
                </Button>
                <Button variant="ghost" onPress={() => setEditing(post)}>
                  Edit
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing !== undefined && <PostDialog post={editing} onClose={() => setEditing(undefined)} />}
    </section>
  );
}
