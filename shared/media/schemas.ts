/** Uploaded media as the API answers it and as posts, events and blog posts carry it (docs/domain/media.md). */
import * as v from 'valibot';
import { text } from '../text-schema';

export const MEDIA_KINDS = ['image', 'audio'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const size = v.pipe(v.number(), v.integer(), v.minValue(1));

/** POST /api/media's answer, and what a post, event or blog post with `mediaId` shows: enough to lay it out before it loads. */
export const MediaSchema = v.object({
  id: v.string(),
  /** The file the page shows (for an image, the size that page uses). */
  url: v.string(),
  kind: v.picklist(MEDIA_KINDS),
  width: v.optional(size),
  height: v.optional(size),
  durationSeconds: v.optional(v.pipe(v.number(), v.minValue(0))),
});
export type Media = v.InferOutput<typeof MediaSchema>;

/** An uploaded file named in a post, event or blog post, or made the avatar. */
export const MediaIdSchema = v.pipe(text('Media id must be text'), v.uuid('Unknown media: upload the file first'));

export const SetAvatarSchema = v.object({ mediaId: MediaIdSchema });

/** Limits of one upload (docs/domain/media.md#limits). */
export const MEDIA_LIMITS = {
  imageBytes: 15 * 1024 * 1024,
  audioBytes: 50 * 1024 * 1024,
  /** 50 megapixels: any camera's photo, not a decompression bomb. */
  imagePixels: 50_000_000,
} as const;

export const ACCEPTED_MEDIA = 'a JPEG, PNG, WebP or HEIC image, or MP3, M4A or OGG audio';
