/**
 * The admin dashboard's Settings tab: the public site's pages, each edited as a title and Markdown, with a preview
 * rendered by the server exactly as the page will show it.
 */
import { useState } from 'react';
import { SITE_PAGE_SLUGS, SITE_PAGE_TITLE_MAX_LENGTH, type SitePage, type SitePageSlug } from '../../../shared/site-pages/schemas';
import { Panel } from '../../components/panel';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { previewSitePage, useSaveSitePage, useSitePages } from './api';

const fieldClass = 'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900';

function PageEditor({ page }: { page: SitePage }) {
  const [title, setTitle] = useState(page.title);
  const [body, setBody] = useState(page.body);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<string | null>(null);
  const save = useSaveSitePage();
  const { toast } = useToast();
  const changed = title !== page.title || body !== page.body;

  const submit = () =>
    save.mutate(
      { slug: page.slug, input: { title, body } },
      {
        onSuccess: (saved) => {
          setFields({});
          setPreview(null);
          toast({ title: `${saved.title} saved`, description: 'The page shows the new text now.' });
        },
        onError: (error) => {
          setFields(error instanceof ApiError ? error.fields : {});
          toast({ title: 'Could not save the page', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
        },
      },
    );
  const showPreview = async () => {
    try {
      setPreview((await previewSitePage(body)).html);
    } catch (error) {
      toast({ title: 'Could not show a preview', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    }
  };

  return (
    <form
      aria-label={`Edit ${page.title}`}
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="block text-sm font-medium">
        Title
        <input
          value={title}
          maxLength={SITE_PAGE_TITLE_MAX_LENGTH}
          onChange={(event) => setTitle(event.target.value)}
          aria-invalid={fields.title ? true : undefined}
          aria-describedby={fields.title ? 'page-title-error' : undefined}
          className={`${fieldClass} mt-1 min-h-11`}
        />
      </label>
      {fields.title && (
        <p id="page-title-error" className="text-sm text-red-700 dark:text-red-400">
          {fields.title}
        </p>
      )}
      <label className="block text-sm font-medium">
        Text (Markdown)
        <textarea
          rows={16}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={fields.body ? true : undefined}
          aria-describedby="page-body-help"
          className={`${fieldClass} mt-1 font-mono text-sm`}
        />
      </label>
      <p id="page-body-help" className="text-xs text-slate-600 dark:text-slate-400">
        {fields.body ??
          '## for a heading, **bold**, *italic*, - for a list, [text](address) for a link. Scripts and unsafe links are removed.'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isDisabled={save.isPending || !changed}>
          {save.isPending ? 'Saving...' : 'Save page'}
        </Button>
        <Button variant="secondary" onPress={() => void showPreview()}>
          Preview
        </Button>
        <a
          href={`/${page.slug}`}
          target="_blank"
          rel="noopener"
          className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-brand-600 underline dark:text-amber-accent"
        >
          Open the page
        </a>
      </div>
      {preview !== null && (
        <section aria-label="Preview" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <h2 className="text-sm font-semibold text-slate-600 uppercase dark:text-slate-400">Preview</h2>
          <h3 className="mt-2 text-2xl font-bold">{title}</h3>
          {/* Rendered and sanitised by the server, as the page will show it. */}
          <div className="blog-content mt-4 space-y-4 leading-relaxed" dangerouslySetInnerHTML={{ __html: preview }} />
        </section>
      )}
    </form>
  );
}

export function SitePagesEditor() {
  const { data: user } = useCurrentUser();
  const pages = useSitePages();
  const [slug, setSlug] = useState<SitePageSlug>('about');
  if (user?.role !== 'admin')
    return (
      <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
        Only admins can change the site’s settings and pages.
      </p>
    );
  if (pages.isPending) return <p role="status">Loading the site’s pages...</p>;
  if (pages.isError) return <p role="alert">The site’s pages could not be loaded.</p>;
  const page = pages.data.find((candidate) => candidate.slug === slug)!;
  return (
    <Panel id="site-pages-heading" title="Site pages" headingClassName="text-lg font-semibold">
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        The pages linked from the public site’s footer. A page never edited shows its built-in text.
      </p>
      <label htmlFor="site-page-choice" className="mt-4 block text-sm font-medium">
        Page
      </label>
      <select
        id="site-page-choice"
        value={slug}
        onChange={(event) => setSlug(SITE_PAGE_SLUGS.find((known) => known === event.target.value) ?? slug)}
        className={`${fieldClass} mt-1 min-h-11 sm:w-auto`}
      >
        {pages.data.map((candidate) => (
          <option key={candidate.slug} value={candidate.slug}>
            {candidate.title}
            {candidate.updatedAt ? '' : ' (built-in text)'}
          </option>
        ))}
      </select>
      <div className="mt-4">
        <PageEditor key={`${page.slug} ${page.updatedAt}`} page={page} />
      </div>
    </Panel>
  );
}
