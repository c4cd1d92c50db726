/** Small pieces the discussion pages share: a category's mark, a text's paragraphs and quotes, the writing box. */
import type { ReactNode } from 'react';
import { QueryState } from '../../components/load-state';
import { WritingBox, type WritingBoxProps } from '../../components/writing-box';
import type { Category } from './api';
import { textToHtml } from './text';

/** A category's colour as a dot beside its name; the name is always written, so the colour is never the only cue. */
export function CategoryMark({ name, color, className = 'text-xs font-medium' }: { name: string; color: string; className?: string }) {
  return (
    <span className={`inline-flex min-w-0 items-center gap-1.5 text-slate-700 dark:text-slate-300 ${className}`}>
      <span aria-hidden="true" className="size-2.5 shrink-0 rounded-sm" style={{ backgroundColor: color }} />
      <span className="truncate">{name}</span>
    </span>
  );
}

/** A topic's or reply's text: HTML the server sanitised when it was written (an allow-list of tags and attributes). */
export function PostText({ content }: { content: string }) {
  return <div className="blog-content space-y-2 break-words" dangerouslySetInnerHTML={{ __html: content }} />;
}

export const fieldClass =
  'min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900';

/** Plain text where `>` lines quote, sent as HTML (text.ts); at most this many characters, within the server's HTML limit. */
const TEXT_MAX_LENGTH = 10_000;

/** The writing box of topics and replies. */
export function DiscussionWritingBox(props: Omit<WritingBoxProps, 'maxLength' | 'prepare'>) {
  return <WritingBox {...props} maxLength={TEXT_MAX_LENGTH} prepare={(text) => textToHtml(text.trim())} />;
}

/** The categories once read: the topic list and the dashboard's tab wait for them, and say they failed, alike. */
export function CategoriesState({
  categories,
  children,
}: {
  categories: { isPending: boolean; isError: boolean; data: Category[] | undefined };
  children: (list: Category[]) => ReactNode;
}) {
  return (
    <QueryState query={categories} loading="Loading categories..." failed="The categories could not be loaded. Please refresh the page.">
      {children}
    </QueryState>
  );
}
