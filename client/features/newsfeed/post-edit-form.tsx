/**
 * A post's text edited in place (docs/domain/feed.md#editing). A member's edit of an approved post waits for staff
 * while the approved text stays; the form says so before saving. On an error the text stays in the form, with the
 * server's words under the field they concern. Ctrl/Cmd+Enter saves, Escape cancels.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api';
import { isStaff, type CurrentUser } from '../../lib/current-user';
import { MAX_TAGS_PER_ITEM, MEDIA_TYPES, POST_CONTENT_MAX_LENGTH, type MediaType } from '../../../shared/feed/constants';
import { usePostChanges, type Post } from './api';

const MEDIA_LABELS: Record<MediaType, string> = { image: 'Image', video: 'Video', audio: 'Audio', youtube: 'YouTube', link: 'Link' };
const fieldClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900 aria-invalid:border-red-600';

export function PostEditForm({ post, viewer, onDone }: { post: Post; viewer: CurrentUser; onDone: () => void }) {
  const { toast } = useToast();
  const { edit } = usePostChanges();
  const staff = isStaff(viewer.role);
  // The author goes on from the edit that waits, if one does: it is their latest text.
  const start = (!staff && post.revision) || post;
  const [content, setContent] = useState(start.content);
  const [tags, setTags] = useState(start.tags.map((tag) => `#${tag}`).join(' '));
  // A media link can be changed here; an uploaded photo or recording stays as it is.
  const upload = Boolean(post.media) && start.mediaUrl === post.media?.url;
  const [mediaType, setMediaType] = useState<MediaType | ''>(upload ? '' : (start.mediaType ?? ''));
  const [mediaUrl, setMediaUrl] = useState(upload ? '' : (start.mediaUrl ?? ''));
  const mediaChanged =
    !upload && (mediaType !== (start.mediaType ?? '') || (mediaType !== '' && mediaUrl.trim() !== (start.mediaUrl ?? '')));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();
  const textArea = useRef<HTMLTextAreaElement>(null);
  const tagsInput = useRef<HTMLInputElement>(null);
  const held = !staff && post.status === 'approved';
  // A rejected post its author edits goes back to the moderation queue.
  const resubmitted = !staff && post.status === 'rejected';

  const save = () => {
    if (edit.isPending) return;
    setFailure(null);
    edit.mutate(
      {
        id: post.id,
        edit: {
          content,
          tags: tags.split(/[\s,]+/u).filter(Boolean),
          ...(mediaChanged ? (mediaType ? { mediaType, mediaUrl: mediaUrl.trim() } : { mediaType: null, mediaUrl: null }) : {}),
        },
      },
      {
        onSuccess: (saved) => {
          toast(
            saved.pendingRevision && held
              ? { title: 'Edit sent for review', description: 'Staff will look at it; the post shows its current text until then.' }
              : resubmitted && saved.status === 'pending'
                ? { title: 'Sent for review again', description: 'Staff will look at your post again.' }
                : { title: 'Post updated' },
          );
          onDone();
        },
        onError: (error) => {
          const refused = error instanceof ApiError ? error.fields : {};
          setFields(refused);
          setFailure(errorMessage(error, 'Your edit could not be saved. Please try again.'));
          // The field to correct, with its reason read out (aria-describedby).
          if (refused.mediaUrl && !refused.content && !refused.tags) document.getElementById(`${id}-media-url`)?.focus();
          else (refused.tags && !refused.content ? tagsInput.current : textArea.current)?.focus();
        },
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  };

  return (
    <form
      aria-label="Edit post"
      className="mt-3 space-y-3"
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <div>
        <label htmlFor={`${id}-content`} className="text-sm font-medium">
          Post text
        </label>
        <textarea
          id={`${id}-content`}
          ref={textArea}
          autoFocus
          value={content}
          onChange={(event) => setContent(event.target.value)}
          rows={Math.min(12, Math.max(4, content.split('\n').length + 1))}
          maxLength={POST_CONTENT_MAX_LENGTH}
          aria-invalid={fields.content ? true : undefined}
          aria-describedby={fields.content ? `${id}-content-error` : undefined}
          className={`${fieldClass} mt-1 py-2`}
        />
        {fields.content && (
          <p id={`${id}-content-error`} className="text-sm text-red-700 dark:text-red-400">
            {fields.content}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-tags`} className="text-sm font-medium">
          Tags
        </label>
        <input
          id={`${id}-tags`}
          ref={tagsInput}
          value={tags}
          onChange={(event) => setTags(event.target.value)}
          aria-invalid={fields.tags ? true : undefined}
          aria-describedby={`${id}-tags-hint`}
          className={`${fieldClass} mt-1 min-h-11`}
        />
        <p
          id={`${id}-tags-hint`}
          className={`text-sm ${fields.tags ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}`}
        >
          {fields.tags ?? `Separated by spaces or commas, at most ${MAX_TAGS_PER_ITEM}`}
        </p>
      </div>
      {upload ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The attached {post.media?.kind === 'audio' ? 'recording' : 'photo'} stays with the post.
        </p>
      ) : (
        <div className="grid gap-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
          <div>
            <label htmlFor={`${id}-media-type`} className="text-sm font-medium">
              Media
            </label>
            <select
              id={`${id}-media-type`}
              value={mediaType}
              onChange={(event) => setMediaType(event.target.value as MediaType | '')}
              className={`${fieldClass} mt-1 min-h-11`}
            >
              <option value="">None</option>
              {MEDIA_TYPES.map((type) => (
                <option key={type} value={type}>
                  {MEDIA_LABELS[type]}
                </option>
              ))}
            </select>
          </div>
          {mediaType && (
            <div>
              <label htmlFor={`${id}-media-url`} className="text-sm font-medium">
                Media URL
              </label>
              <input
                id={`${id}-media-url`}
                type="url"
                value={mediaUrl}
                onChange={(event) => setMediaUrl(event.target.value)}
                placeholder="https://"
                aria-invalid={fields.mediaUrl ? true : undefined}
                aria-describedby={fields.mediaUrl ? `${id}-media-url-error` : undefined}
                className={`${fieldClass} mt-1 min-h-11`}
              />
              {fields.mediaUrl && (
                <p id={`${id}-media-url-error`} className="text-sm text-red-700 dark:text-red-400">
                  {fields.mediaUrl}
                </p>
              )}
            </div>
          )}
        </div>
      )}
      {failure && !fields.content && !fields.tags && !fields.mediaUrl && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {held
            ? 'Staff review edits; the post keeps its current text until then.'
            : resubmitted
              ? 'Saving sends the post back to staff for review.'
              : 'Saved at once.'}
        </p>
        <div className="flex gap-2">
          <Button variant="ghost" onPress={onDone}>
            Cancel
          </Button>
          <Button type="submit" isDisabled={edit.isPending || content.trim().length === 0}>
            {edit.isPending ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </div>
    </form>
  );
}
