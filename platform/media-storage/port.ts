/**
 * Where uploaded media files live (docs/domain/media.md#storage): local disk by default, S3-compatible object
 * storage at scale. Keys are `<media id>/<variant>.<extension>`, checked by `MediaKeySchema` before any adapter
 * sees them, so no key can name a path outside the store. A key's bytes never change once written: the media id
 * is new for every upload, which is what lets the files be served as immutable.
 */
import type { Readable } from 'node:stream';
import * as v from 'valibot';

/** The variants an upload is stored as, by the pages that show them (docs/domain/media.md#sizes). */
export const MEDIA_VARIANTS = ['avatar-96', 'avatar-192', 'feed', 'blog', 'audio'] as const;
export type MediaVariant = (typeof MEDIA_VARIANTS)[number];

/** Content types by file extension: the only extensions a key may have. */
export const MEDIA_CONTENT_TYPES = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
} as const;
export type MediaExtension = keyof typeof MEDIA_CONTENT_TYPES;

const FILE_NAME = new RegExp(`^(${MEDIA_VARIANTS.join('|')})\\.(${Object.keys(MEDIA_CONTENT_TYPES).join('|')})$`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A stored file's name within its media: `feed.webp`. */
export const MediaFileNameSchema = v.pipe(v.string(), v.regex(FILE_NAME, 'Unknown media file'));
export const MediaKeySchema = v.pipe(
  v.string(),
  v.check((key) => {
    const [id, file, ...rest] = key.split('/');
    return rest.length === 0 && UUID.test(id ?? '') && FILE_NAME.test(file ?? '');
  }, 'Unknown media file'),
);

export const mediaKey = (id: string, variant: MediaVariant, extension: MediaExtension) => `${id}/${variant}.${extension}`;

export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1) as MediaExtension;
  return MEDIA_CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** Inclusive byte positions, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  body: Readable;
  /** The whole file's size, whatever part `body` holds. */
  size: number;
  contentType: string;
}

export interface MediaStorage {
  readonly name: 'disk' | 's3';
  /** Writes the file (a key is written once; writing it again replaces it whole). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file, or the bytes of `range` in it; null when there is no such file. */
  get(key: string, range?: ByteRange): Promise<StoredFile | null>;
  /** The file's size and type without its bytes; null when there is none. */
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** Removes the file; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Every key in the store. */
  list(): AsyncIterable<string>;
  close(): Promise<void>;
}

export class MediaStorageKeyError extends Error {
  override readonly name = 'MediaStorageKeyError';
}

/** Every adapter's first step: a key that is not one of ours never reaches a file system or a bucket. */
export function checkedKey(key: string): string {
  if (v.is(MediaKeySchema, key)) return key;
  throw new MediaStorageKeyError(`Not a media key: ${JSON.stringify(String(key).slice(0, 100))}`);
}
