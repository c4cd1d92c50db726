/** The box members write comments and discussion replies in. */
import { useId, useImperativeHandle, useRef, useState, type FormEvent, type Ref } from 'react';
import { useMentionPicker } from './mention-picker';
import { Button } from './ui/button';
import { ApiError } from '../lib/api';

export interface WritingBoxHandle {
  /** Puts `next` in the box (a quote added), focuses it and moves the caret to its end. */
  replace: (next: (current: string) => string) => void;
  focus: () => void;
}

/**
 * A labelled text box with `@name` mentions and its send button (Ctrl/Cmd+Enter sends too, Escape cancels); keeps the
 * text until the server has taken it, and shows the server's reason when it refuses. `prepare` turns the text into what
 * is sent (discussions send HTML); `labelHidden` leaves the label to screen readers, the placeholder saying it.
 */
export interface WritingBoxProps {
  ref?: Ref<WritingBoxHandle>;
  label: string;
  labelHidden?: boolean;
  maxLength: number;
  emptyMessage?: string;
  prepare?: (text: string) => string;
  className?: string;
  placeholder?: string;
  submitLabel: string;
  initial?: string;
  rows?: number;
  autoFocus?: boolean;
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  hint?: string;
}

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
  labelHidden = false,
  maxLength,
  emptyMessage = 'Write something first',
  prepare = (text) => text,
  className = '',
}: WritingBoxProps) {
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
      setError(emptyMessage);
      return;
    }
    setSending(true);
    try {
      await onSubmit(prepare(content));
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
    <form onSubmit={(event) => void submit(event)} className={`flex flex-col gap-2 ${className}`}>
      <label htmlFor={id} className={labelHidden ? 'sr-only' : 'text-sm font-medium'}>
        {label}
      </label>
      <textarea
        id={id}
        ref={textArea}
        {...mentions.textAreaProps}
        value={content}
        placeholder={placeholder}
        rows={rows}
        maxLength={maxLength}
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
        className="w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900"
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
