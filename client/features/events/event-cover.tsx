/**
 * An event's cover picture (its upload, 800 wide), with its width and height so nothing moves while it loads: wide
 * on the event's page and in its dialog, a small thumbnail in the calendar's list (the form shows it with
 * client/components/cover-image-picker.tsx).
 */
import type { Media } from '../../../shared/media/schemas';

const SIZES = {
  page: 'h-auto max-h-96 w-full rounded-xl object-cover',
  dialog: 'h-auto max-h-64 w-full rounded-lg object-cover',
  thumbnail: 'h-16 w-24 shrink-0 rounded-md object-cover',
} as const;

export function EventCover({ media, size, alt = '' }: { media: Media | undefined | null; size: keyof typeof SIZES; alt?: string }) {
  if (!media || media.kind !== 'image') return null;
  return (
    <img
      src={media.url}
      width={media.width}
      height={media.height}
      alt={alt}
      loading={size === 'thumbnail' ? 'lazy' : undefined}
      className={SIZES[size]}
    />
  );
}
