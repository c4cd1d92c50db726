import { useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { isStaff, type CurrentUser } from '../../lib/current-user';
import { MAX_TAGS_PER_ITEM, MEDIA_TYPES, TAG_MAX_LENGTH, type MediaType } from '../../../shared/feed/constants';
import { normalizeTag } from '../../../shared/feed/tags';
import { useSubmitPost, useUploadMedia } from './api';
import type { Media } from '../../../shared/media/schemas';
import { useMentionPicker } from '../../components/mention-picker';
import { UploadView } from '../../components/upload-view';
import { TagInput, useTagEntry } from '../../components/tag-input';

const MEDIA_LABELS: Record<MediaType, string> = { image: 'Image', video: 'Video', audio: 'Audio', youtube: 'YouTube', link: 'Link' };
const fieldClass = 'min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900';

/** A media link's field, its name above the box and the server's refusal under it. */
function MediaField({
  label,
  type,
  placeholder,
  value,
  onChange,
  error,
}: {
  label: string;
  type?: 'url';
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <label className="text-sm">
      {label}
      <input
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={fieldClass}
      />
      {error && <span className="text-red-600">{error}</span>}
    </label>
  );
}

/** The post composer: collapsed until the text area is focused; Ctrl/Cmd+Enter posts. */
export function Composer({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const [expanded, setExpanded] = useState(false);
  const [content, setContent] = useState('');
  const [mediaType, setMediaType] = useState<MediaType | null>(null);
  const [mediaUrl, setMediaUrl] = useState('');
  const [mediaTitle, setMediaTitle] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  // A refused tag stays in the input, with the reason under it, so it can be shortened.
  const tagEntry = useTagEntry(tags, setTags, normalizeTag);
  /** A photo or recording uploaded for this post: it takes the place of a media link. */
  const [attached, setAttached] = useState<Media | null>(null);
  const upload = useUploadMedia();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const textArea = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionPicker(content, setContent, textArea);

  const reset = () => {
    setExpanded(false);
    setContent('');
    setMediaType(null);
    setMediaUrl('');
    setMediaTitle('');
    setTags([]);
    tagEntry.setText('');
    setFields({});
    setAttached(null);
  };

  const attach = (file: File | undefined) => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (media) => {
        setAttached(media);
        setMediaType(null);
      },
      onError: (error) =>
        toast({ title: 'Could not attach the file', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
    });
    if (fileInput.current) fileInput.current.value = '';
  };

  const post = useSubmitPost();
  const canPost = content.trim().length > 0 && !post.isPending && !upload.isPending;
  const submit = () =>
    canPost &&
    post.mutate(
      attached
        ? { content: content.trim(), mediaId: attached.id, mediaType: null, mediaUrl: null, mediaTitle: null, tags }
        : { content: content.trim(), mediaType, mediaUrl: mediaType ? mediaUrl : null, mediaTitle: mediaType ? mediaTitle : null, tags },
      {
        onSuccess: () => {
          reset();
          textArea.current?.blur();
          toast({
            title: isStaff(user.role) ? 'Posted' : 'Submitted for approval',
            description: isStaff(user.role) ? 'Your post is live.' : 'Staff will review your post shortly.',
          });
        },
        onError: (error) => {
          if (error instanceof ApiError) setFields(error.fields);
          toast({ title: 'Could not post', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
        },
      },
    );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentions.onKeyDown(event)) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <section aria-label="Write a post" className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <label htmlFor="composer" className="sr-only">
        Share something with the community
      </label>
      <textarea
        id="composer"
        ref={textArea}
        {...mentions.textAreaProps}
        value={content}
        onChange={(event) => {
          setContent(event.target.value);
          mentions.follow(event.target);
        }}
        onFocus={() => setExpanded(true)}
        onKeyDown={onKeyDown}
        rows={expanded ? 4 : 1}
        maxLength={5000}
        placeholder="Share a memory, a find or a question..."
        // Folded, it is as tall as its placeholder, which wraps on a phone rather than being cut off.
        className={`${fieldClass} py-2 ${expanded ? '' : 'field-sizing-content'}`}
      />
      {mentions.picker}
      {fields.content && <p className="mt-1 text-sm text-red-600">{fields.content}</p>}
      {expanded && (
        <div className="mt-3 space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            <input
              ref={fileInput}
              id="composer-file"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,audio/mpeg,audio/mp4,audio/ogg,.heic,.m4a"
              className="sr-only"
              onChange={(event) => attach(event.target.files?.[0])}
            />
            <label
              htmlFor="composer-file"
              className="inline-flex min-h-11 cursor-pointer items-center rounded-md border border-slate-300 px-3 text-sm hover:bg-slate-50 focus-within:ring-2 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              {upload.isPending ? 'Uploading…' : attached ? 'Replace photo or audio' : 'Attach photo or audio'}
            </label>
            {attached && (
              <Button variant="ghost" onPress={() => setAttached(null)}>
                Remove attachment
              </Button>
            )}
          </div>
          {fields.mediaId && <p className="text-sm text-red-600">{fields.mediaId}</p>}
          <UploadView
            upload={attached}
            alt="Attached photo"
            audioLabel="Attached recording"
            imageClassName="h-auto max-h-48 w-auto rounded-lg"
            audioClassName="w-full"
          />
          {!attached && (
            <div role="group" aria-label="Media type" className="flex flex-wrap gap-2">
              {MEDIA_TYPES.map((type) => (
                <button
                  key={type}
                  type="button"
                  aria-pressed={mediaType === type}
                  onClick={() => setMediaType(mediaType === type ? null : type)}
                  className={`min-h-11 rounded-md border px-3 text-sm ${mediaType === type ? 'border-brand-600 bg-brand-600 text-white dark:border-amber-accent dark:bg-amber-accent dark:text-slate-950' : 'border-slate-300 dark:border-slate-600'}`}
                >
                  {MEDIA_LABELS[type]}
                </button>
              ))}
            </div>
          )}
          {!attached && mediaType && (
            <div className="grid gap-2 sm:grid-cols-2">
              <MediaField
                label="Media URL"
                type="url"
                placeholder="https://"
                value={mediaUrl}
                onChange={setMediaUrl}
                error={fields.mediaUrl}
              />
              <MediaField label="Media title" value={mediaTitle} onChange={setMediaTitle} />
            </div>
          )}
          <div>
            <TagInput id="tag-input" limitsId="tag-limits" className={fieldClass} entry={tagEntry} />
            <p
              id="tag-limits"
              className={`mt-1 text-sm ${tagEntry.refusal || fields.tags ? 'text-red-600' : 'text-slate-600 dark:text-slate-400'}`}
            >
              {tagEntry.refusal ?? fields.tags ?? `${tags.length} of ${MAX_TAGS_PER_ITEM} tags, up to ${TAG_MAX_LENGTH} characters each`}
            </p>
            {tags.length > 0 && (
              <ul className="mt-2 flex flex-wrap gap-2" aria-label="Tags to add">
                {tags.map((tag) => (
                  <li key={tag} className="flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2 text-sm dark:bg-slate-800">
                    #{tag}
                    <button
                      type="button"
                      aria-label={`Remove tag ${tag}`}
                      onClick={() => setTags(tags.filter((t) => t !== tag))}
                      className="min-h-8 min-w-8 rounded-full hover:bg-slate-200 dark:hover:bg-slate-700"
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {isStaff(user.role) ? 'Will post immediately' : 'Pending approval'}
            </p>
            <div className="flex gap-2">
              <Button variant="ghost" onPress={reset}>
                Cancel
              </Button>
              <Button onPress={submit} isDisabled={!canPost}>
                {post.isPending ? 'Posting...' : 'Post'}
              </Button>
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
