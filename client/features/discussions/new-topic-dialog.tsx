/**
 * "New topic": a title, the category it goes in, the opening text (plain text as the feed writes it, `@name`
 * mentions, Ctrl/Cmd+Enter starts it) and tags. Escape or Cancel closes it; what the server refuses stays with the
 * field it concerns.
 */
import { useRef, useState } from 'react';
import { DialogActions, DialogWindow } from '../../components/dialog-window';
import { FormField } from '../../components/form-field';
import { useMentionPicker } from '../../components/mention-picker';
import { ApiError, errorMessage } from '../../lib/api';
import { normalizeTags } from '../../../shared/feed/tags';
import { useStartTopic, type Category } from './api';
import { fieldClass } from './parts';
import { textToHtml } from './text';

export function NewTopicDialog({
  categories,
  initialCategory,
  onClose,
  onStarted,
}: {
  categories: Category[];
  initialCategory: string | undefined;
  onClose: () => void;
  onStarted: (id: string) => void;
}) {
  const [title, setTitle] = useState('');
  const [categoryId, setCategoryId] = useState(initialCategory ?? categories[0]?.id ?? '');
  const [content, setContent] = useState('');
  const [tags, setTags] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionPicker(content, setContent, textArea);
  const start = useStartTopic();

  const submit = () => {
    if (start.isPending) return;
    const missing: Record<string, string> = {};
    if (!title.trim()) missing.title = 'Give the topic a title';
    if (!content.trim()) missing.content = 'Write the opening post';
    if (!categoryId) missing.categoryId = 'Choose a category';
    setFields(missing);
    setFailure(null);
    if (Object.keys(missing).length > 0) return;
    const tagList = normalizeTags(tags.split(','));
    start.mutate(
      { title: title.trim(), content: textToHtml(content.trim()), categoryId, ...(tagList.length > 0 ? { tags: tagList } : {}) },
      {
        onSuccess: (topic) => onStarted(topic.id),
        onError: (error) => {
          if (error instanceof ApiError) setFields(error.fields);
          setFailure(errorMessage(error, 'The topic could not be started. Please try again.'));
        },
      },
    );
  };
  return (
    <DialogWindow onClose={onClose} title="New topic" titleClassName="text-xl font-bold" width="2xl" place="top">
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <FormField label="Title" error={fields.title}>
          {(control) => (
            <input
              {...control}
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              maxLength={200}
              autoFocus
              placeholder="Who remembers the KRNT night crew?"
              className={fieldClass}
            />
          )}
        </FormField>
        <FormField label="Category" error={fields.categoryId}>
          {(control) => (
            <select {...control} value={categoryId} onChange={(event) => setCategoryId(event.target.value)} className={fieldClass}>
              {categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {category.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Opening post" error={fields.content} after={mentions.picker}>
          {(control) => (
            <textarea
              {...control}
              ref={textArea}
              {...mentions.textAreaProps}
              value={content}
              rows={8}
              maxLength={10000}
              placeholder="Tell the community what you remember or what you are looking for. Type @ to mention a member."
              onChange={(event) => {
                setContent(event.target.value);
                mentions.follow(event.target);
              }}
              onKeyDown={(event) => {
                if (mentions.onKeyDown(event)) {
                  // Escape closes the picker, not the dialog.
                  if (event.key === 'Escape') event.stopPropagation();
                  return;
                }
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  submit();
                }
              }}
              className={`${fieldClass} resize-y py-2`}
            />
          )}
        </FormField>
        <FormField
          label={
            <>
              Tags <span className="font-normal text-slate-600 dark:text-slate-400">(optional, separated by commas)</span>
            </>
          }
          error={fields.tags}
        >
          {(control) => (
            <input
              {...control}
              value={tags}
              onChange={(event) => setTags(event.target.value)}
              placeholder="radio, 1950s, krnt"
              className={fieldClass}
            />
          )}
        </FormField>
        {failure && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {failure}
          </p>
        )}
        <DialogActions onCancel={onClose} isDisabled={start.isPending} confirmLabel={start.isPending ? 'Starting...' : 'Start topic'} />
      </form>
    </DialogWindow>
  );
}
