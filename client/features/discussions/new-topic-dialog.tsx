/**
 * "New topic": a title, the category it goes in, the opening text (plain text as the feed writes it, `@name`
 * mentions, Ctrl/Cmd+Enter starts it) and tags. Escape or Cancel closes it; what the server refuses stays with the
 * field it concerns.
 */
import { useId, useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useMentionPicker } from '../../components/mention-picker';
import { Button } from '../../components/ui/button';
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
  const id = useId();
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
  const error = (name: string) =>
    fields[name] && (
      <p id={`${id}-${name}-error`} className="text-sm text-red-700 dark:text-red-400">
        {fields[name]}
      </p>
    );
  const invalid = (name: string) => (fields[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${name}-error` } : {});

  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => !open && onClose()}
      className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/40 p-2 sm:p-4"
    >
      <Modal className="w-full max-w-2xl rounded-xl bg-white p-4 shadow-xl sm:p-6 dark:bg-slate-900">
        <Dialog className="outline-none">
          <Heading slot="title" className="text-xl font-bold">
            New topic
          </Heading>
          <form
            className="mt-4 space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <div className="space-y-1">
              <label htmlFor={`${id}-title`} className="text-sm font-medium">
                Title
              </label>
              <input
                id={`${id}-title`}
                value={title}
                onChange={(event) => setTitle(event.target.value)}
                maxLength={200}
                autoFocus
                placeholder="Who remembers the KRNT night crew?"
                className={fieldClass}
                {...invalid('title')}
              />
              {error('title')}
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-category`} className="text-sm font-medium">
                Category
              </label>
              <select
                id={`${id}-category`}
                value={categoryId}
                onChange={(event) => setCategoryId(event.target.value)}
                className={fieldClass}
                {...invalid('categoryId')}
              >
                {categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {category.name}
                  </option>
                ))}
              </select>
              {error('categoryId')}
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-content`} className="text-sm font-medium">
                Opening post
              </label>
              <textarea
                id={`${id}-content`}
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
                {...invalid('content')}
              />
              {mentions.picker}
              {error('content')}
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-tags`} className="text-sm font-medium">
                Tags <span className="font-normal text-slate-600 dark:text-slate-400">(optional, separated by commas)</span>
              </label>
              <input
                id={`${id}-tags`}
                value={tags}
                onChange={(event) => setTags(event.target.value)}
                placeholder="radio, 1950s, krnt"
                className={fieldClass}
                {...invalid('tags')}
              />
              {error('tags')}
            </div>
            {failure && (
              <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                {failure}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Button variant="ghost" onPress={onClose}>
                Cancel
              </Button>
              <Button type="submit" isDisabled={start.isPending}>
                {start.isPending ? 'Starting...' : 'Start topic'}
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
