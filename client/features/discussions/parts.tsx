/** Small pieces the discussion pages share: a category's mark, a text's paragraphs and quotes, the writing box. */
import { useId, useImperativeHandle, useRef, useState, type FormEvent, type Ref } from 'react';
import { useMentionPicker } from '../../components/mention-picker';
import { Button } from '../../components/ui/button';
import { ApiError } from '../../lib/api';
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

export interface WritingBoxHandle {
  /** Puts `next` in the box (a quote added), focuses it and moves the caret to its end. */
  replace: (next: (current: string) => string) => void;
  focus: () => void;
}

/**
 * A labelled text box (plain text, `>` lines quote; sent as HTML, see text.ts) with `@name` mentions and its send button (Ctrl/Cmd+Enter sends too); keeps the text until
 * the server has taken it, and shows the server's reason when it refuses.
 */
export function WritingBox({
  ref,
  label,
  placeholder,
  submitLabel,
  initial = '',
  rows = 4,
  autoFocus,
  onSubmit,
  onCancel,
  hint,
}: {
  ref?: Ref<WritingBoxHandle>;
  label: string;
  placeholder?: string;
  submitLabel: string;
  initial?: string;
  rows?: number;
  autoFocus?: boolean;
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  hint?: string;
}) {
  const id = useId();
  const [content, setContent] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionPicker(content, setContent, textArea);
  useImperativeHandle(ref, () => ({
    replace: (next) => {
      const value = next(textArea.current?.value ?? content);
      setContent(value);
      requestAnimationFrame(() => {
        const element = textArea.current;
        if (!element) return;
        element.focus();
        element.setSelectionRange(value.length, value.length);
      });
    },
    focus: () => textArea.current?.focus(),
  }));
  const submit = async (event: Pick<FormEvent, 'preventDefault'>) => {
    event.preventDefault();
    if (sending) return;
    if (!content.trim()) {
      setError('Write something first');
      return;
    }
    setSending(true);
    try {
      await onSubmit(textToHtml(content.trim()));
      setContent('');
      setError(null);
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? (failure.fields.content ?? failure.serverMessage ?? 'Something went wrong. Please try again.')
          : 'Something went wrong. Please try again.',
      );
    } finally {
      setSending(false);
    }
  };
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        ref={textArea}
        {...mentions.textAreaProps}
        value={content}
        placeholder={placeholder}
        rows={rows}
        maxLength={10000}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => {
          setContent(event.target.value);
          mentions.follow(event.target);
          if (error) setError(null);
        }}
        onKeyDown={(event) => {
          if (mentions.onKeyDown(event)) return;
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event);
          if (event.key === 'Escape' && onCancel) onCancel();
        }}
        className={`${fieldClass} resize-y py-2`}
      />
      {mentions.picker}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {hint && (
          <p id={`${id}-hint`} className="mr-auto text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </p>
        )}
        {onCancel && (
          <Button variant="ghost" onPress={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" isDisabled={sending}>
          {sending ? 'Sending...' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
