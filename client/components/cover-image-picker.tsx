/**
 * A form's cover image (a blog post's, an event's; docs/domain/media.md#posts): a look at the upload chosen, a
 * button to choose or replace it, one to take it away, and the field's error. The form uploads the file chosen and
 * says, its own way, what it refuses.
 */
import { useId } from 'react';
import { FileTrigger } from 'react-aria-components';
import type { Media } from '../../shared/media/schemas';
import { Button } from './ui/button';
import { UploadView } from './upload-view';

/** The pictures the upload takes (docs/domain/media.md#uploading). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', '.heic'];

export function CoverImagePicker({
  cover,
  onChoose,
  onRemove,
  uploading,
  disabled = uploading,
  error,
  audioLabel,
  className = 'space-y-2',
  labelClassName = 'block text-sm',
}: {
  cover: Media | null;
  /** The files chosen (the first is the one). */
  onChoose: (files: FileList | null) => void;
  onRemove: () => void;
  /** The cover is being uploaded: the button says so. */
  uploading: boolean;
  /** The choose button is off (by default while `uploading`). */
  disabled?: boolean;
  error?: string | undefined;
  /** An audio upload (possible through the API) is shown as a player of this name; without one, it is not shown. */
  audioLabel?: string;
  /** The group's spacing and its label's look, as the form's other fields have them. */
  className?: string;
  labelClassName?: string;
}) {
  const labelId = useId();
  return (
    <div role="group" aria-labelledby={labelId} className={className}>
      <span id={labelId} className={labelClassName}>
        Cover image
      </span>
      <UploadView
        upload={cover}
        alt="Cover image"
        audioLabel={audioLabel}
        imageClassName="h-auto max-h-40 w-auto max-w-full rounded-lg"
        audioClassName="w-full"
      />
      <div className="flex flex-wrap gap-2">
        <FileTrigger acceptedFileTypes={PICTURE_TYPES} onSelect={onChoose}>
          <Button variant="secondary" isDisabled={disabled}>
            {uploading ? 'Uploading…' : cover ? 'Replace cover image' : 'Choose cover image'}
          </Button>
        </FileTrigger>
        {cover && (
          <Button variant="ghost" onPress={onRemove}>
            Remove cover image
          </Button>
        )}
      </div>
      {error && <span className="block text-sm text-red-600 dark:text-red-400">{error}</span>}
    </div>
  );
}
