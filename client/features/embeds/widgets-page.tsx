/**
 * Widgets for other sites (/admin/widgets, admin and staff): every widget of the
 * catalogue with its options, the snippet to paste (the loader and the widget's
 * placeholder) and a live preview, framed exactly as the loader frames it.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { useToast } from '../../components/ui/toast';
import { LoadMore } from '../../lib/paged-list';
import { usePublishedPostChoices } from './api';
import type { BlogPost } from '../../../shared/blog/schemas';
import { copyText } from '../../lib/share';
import {
  LIMIT_MAX,
  WIDGETS,
  WIDGET_NAMES,
  defaultChoice,
  widgetSnippet,
  widgetUrl,
  type WidgetChoice,
  type WidgetSpec,
} from '../../embed/widgets';

const inputClass = 'min-h-11 rounded-md border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-900';

/** The widget in a frame that follows its height, as the loader's frames do. */
function Preview({ src, title }: { src: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(160);
  useEffect(() => {
    const onMessage = (event: MessageEvent<{ type?: string; height?: unknown }>) => {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      if (event.data?.type === 'bhc:resize' && typeof event.data.height === 'number') setHeight(Math.ceil(event.data.height));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-[repeating-conic-gradient(#f1f5f9_0_25%,#fff_0_50%)] bg-[length:16px_16px] p-2 dark:border-slate-700">
      <iframe ref={frame} src={src} title={title} loading="lazy" className="block w-full border-0" style={{ height }} />
    </div>
  );
}

function Checkbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="flex min-h-11 items-center gap-2 text-sm">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="size-4" />
      {label}
    </label>
  );
}

/** `morePosts` loads further published posts into the blog-post widget's picker. */
function WidgetCard({ spec, posts, morePosts }: { spec: WidgetSpec; posts: Pick<BlogPost, 'id' | 'title'>[]; morePosts: ReactNode }) {
  const { toast } = useToast();
  const id = useId();
  const [choice, setChoice] = useState<WidgetChoice>(() => defaultChoice(spec));
  const chosen = { ...choice, postId: choice.postId || posts[0]?.id || '' };
  const set = (change: Partial<WidgetChoice>) => setChoice((current) => ({ ...current, ...change }));
  const origin = window.location.origin;
  const snippet = widgetSnippet(origin, spec, chosen);
  const ready = spec.kind !== 'blog-post' || chosen.postId !== '';

  const copy = async () => {
    if (await copyText(snippet))
      toast({ title: 'Snippet copied', description: `Paste it into the page that should show the ${spec.label.toLowerCase()} widget.` });
    else toast({ title: 'Copy failed', description: 'Unable to copy the snippet. Select it and copy it by hand.', variant: 'destructive' });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {spec.label}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{spec.description}</p>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        {spec.defaultLimit !== null && (
          <label className="grid gap-1 text-sm">
            Number shown
            <input
              type="number"
              min={1}
              max={LIMIT_MAX}
              value={choice.limit ?? ''}
              onChange={(event) => {
                const limit = Number.parseInt(event.target.value, 10);
                set({ limit: Number.isInteger(limit) && limit >= 1 ? Math.min(limit, LIMIT_MAX) : spec.defaultLimit });
              }}
              className={`${inputClass} w-24`}
            />
          </label>
        )}
        {spec.kind === 'blog-post' && (
          <label className="grid gap-1 text-sm">
            Blog post
            <select value={chosen.postId} onChange={(event) => set({ postId: event.target.value })} className={inputClass}>
              {posts.length === 0 && <option value="">No published posts yet</option>}
              {posts.map((post) => (
                <option key={post.id} value={post.id}>
                  {post.title}
                </option>
              ))}
            </select>
          </label>
        )}
        {spec.kind === 'blog-post' && morePosts}
        {spec.filters.includes('featured') && (
          <Checkbox label="Featured only" checked={choice.featured} onChange={(featured) => set({ featured })} />
        )}
        {spec.filters.includes('pinned') && <Checkbox label="Pinned only" checked={choice.pinned} onChange={(pinned) => set({ pinned })} />}
        {spec.filters.includes('compact') && <Checkbox label="Compact" checked={choice.compact} onChange={(compact) => set({ compact })} />}
        <Checkbox label="Transparent background" checked={choice.transparent} onChange={(transparent) => set({ transparent })} />
      </div>
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h3 className="text-sm font-medium">Snippet</h3>
          <Button variant="secondary" onPress={() => void copy()} isDisabled={!ready} aria-label={`Copy the ${spec.label} snippet`}>
            Copy
          </Button>
        </div>
        <pre
          className="rounded-md bg-slate-100 p-3 text-xs break-all whitespace-pre-wrap dark:bg-slate-800"
          aria-label={`${spec.label} snippet`}
        >
          <code>{snippet}</code>
        </pre>
      </div>
      <div className="space-y-2">
        <h3 className="text-sm font-medium">Preview</h3>
        {ready ? (
          <Preview src={widgetUrl(origin, spec, chosen)} title={`${spec.label} widget preview`} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">Publish a blog post to embed it.</p>
        )}
      </div>
    </section>
  );
}

export function WidgetsPage() {
  const { list, items: posts } = usePublishedPostChoices();
  return (
    <div>
      <PageHeader
        title="Widgets"
        description="Show the community on other sites. Paste a snippet into any web page: the widget stays live and links back here."
      />
      <div className="grid gap-6 xl:grid-cols-2">
        {WIDGET_NAMES.map((name) => (
          <WidgetCard key={name} spec={WIDGETS[name]} posts={posts} morePosts={<LoadMore list={list} label="Load more posts" />} />
        ))}
      </div>
    </div>
  );
}
