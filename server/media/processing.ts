/**
 * What an upload becomes before anything is stored (docs/domain/media.md): its type sniffed from its bytes (never
 * its name or declared type), an image decoded and re-encoded by sharp into the sizes the pages use (EXIF
 * orientation applied, every piece of metadata, GPS included, left behind), audio kept as it is with its duration,
 * once its bytes are shown to be what its type says: the audio parser must read it and find a duration, and no
 * markup (HTML, SVG, script) may be in it (an MP3 header followed by a page is not audio). Refusals: a 400 DomainError for what is not accepted, MediaTooLargeError (413) for what is too large.
 */
import sharp, { type Metadata } from 'sharp';
import { fileTypeFromBuffer } from 'file-type';
import { parseBuffer } from 'music-metadata';
import { DomainError, fail } from '../../shared/domain';
import { ACCEPTED_MEDIA, MEDIA_LIMITS, type MediaKind } from '../../shared/media/schemas';
import type { MediaFile } from '../../shared/media/media-stream';
import { MEDIA_CONTENT_TYPES, mediaKey, type MediaExtension } from '../../platform/media-storage/port';

export interface ProcessedFile extends MediaFile {
  data: Buffer;
}

export interface ProcessedUpload {
  kind: MediaKind;
  contentType: string;
  files: ProcessedFile[];
  width?: number;
  height?: number;
  durationSeconds?: number;
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
/** A 413 (the error handler answers an error's own 4xx statusCode with its message). */
export class MediaTooLargeError extends Error {
  readonly statusCode = 413;
}
export const tooLarge = (message: string) => new MediaTooLargeError(message);
export const notAccepted = () => fail.invalid(`This file is not one we accept: upload ${ACCEPTED_MEDIA}.`);

/** Sniffed extension (file-type's) → what it is and how an audio file is stored. */
const IMAGES = new Set(['jpg', 'png', 'webp', 'heic']);
const AUDIO: Record<string, MediaExtension> = { mp3: 'mp3', m4a: 'm4a', ogg: 'ogg', opus: 'ogg', oga: 'ogg' };

/** Widths (or squares) of each image variant: avatar 96 and 192 (two densities), feed ~800, blog ~1600; never upscaled. */
const SIZES = { 'avatar-96': 96, 'avatar-192': 192, feed: 800, blog: 1600 } as const;

export async function processUpload(id: string, bytes: Buffer): Promise<ProcessedUpload> {
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed && IMAGES.has(sniffed.ext)) {
    if (bytes.length > MEDIA_LIMITS.imageBytes)
      throw tooLarge(`Images may be at most ${megabytes(MEDIA_LIMITS.imageBytes)}; this one is ${megabytes(bytes.length)}.`);
    return processImage(id, bytes, sniffed.mime);
  }
  const audioExtension = sniffed ? AUDIO[sniffed.ext] : undefined;
  if (sniffed && audioExtension) {
    if (bytes.length > MEDIA_LIMITS.audioBytes) throw tooLarge(`Audio files may be at most ${megabytes(MEDIA_LIMITS.audioBytes)}.`);
    return processAudio(id, bytes, sniffed.mime, audioExtension);
  }
  throw notAccepted();
}

async function processImage(id: string, bytes: Buffer, contentType: string): Promise<ProcessedUpload> {
  const source = () => sharp(bytes, { limitInputPixels: MEDIA_LIMITS.imagePixels, failOn: 'error' });
  let metadata: Metadata;
  try {
    // The header alone: a picture too large to decode is refused before it is decoded.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw fail.invalid(
      'This image could not be read. It may be damaged, or in a form of HEIC we cannot open: save it as JPEG and try again.',
    );
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > MEDIA_LIMITS.imagePixels)
    throw tooLarge(
      `Images may be at most ${MEDIA_LIMITS.imagePixels / 1_000_000} megapixels; this one is ${Math.round(pixels / 1_000_000)}.`,
    );
  // Orientations 5 to 8 turn the picture a quarter: its shown width is the stored height.
  const turned = (metadata.orientation ?? 1) >= 5;
  const width = turned ? metadata.height! : metadata.width!;
  const height = turned ? metadata.width! : metadata.height!;
  // The fallback for browsers without WebP keeps a PNG a PNG (transparency); every other image becomes a JPEG.
  const fallback: MediaExtension | null = contentType === 'image/png' ? 'png' : contentType === 'image/webp' ? null : 'jpg';

  try {
    // Decoded once, upright, at the largest size any page uses; every variant is made from these pixels. Five
    // pipelines each decoding the 12-megapixel original took about twice as long (tests/bench/media.bench.ts).
    const base = await source()
      .rotate()
      .resize({ width: SIZES.blog, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: baseWidth, height: baseHeight, channels } = base.info;
    const encode = async (variant: keyof typeof SIZES, extension: MediaExtension): Promise<ProcessedFile> => {
      const size = SIZES[variant];
      const square = variant.startsWith('avatar');
      let pipeline = sharp(base.data, { raw: { width: baseWidth, height: baseHeight, channels } }).resize(
        square ? { width: size, height: size, fit: 'cover', withoutEnlargement: true } : { width: size, withoutEnlargement: true },
      );
      // WebP at effort 2 and plain libjpeg: on a 12-megapixel photo the blog size took 169 ms against 511 ms at the
      // default effort 4, the JPEG fallback 13 ms against 105 ms with mozjpeg, for files a few per cent larger.
      pipeline =
        extension === 'webp'
          ? pipeline.webp({ quality: 80, effort: 2 })
          : extension === 'png'
            ? pipeline.png({ compressionLevel: 8 })
            : pipeline.jpeg({ quality: 82 });
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      return {
        variant,
        key: mediaKey(id, variant, extension),
        contentType: MEDIA_CONTENT_TYPES[extension],
        bytes: data.length,
        width: info.width,
        height: info.height,
        data,
      };
    };
    const files = await Promise.all([
      encode('avatar-96', 'webp'),
      encode('avatar-192', 'webp'),
      encode('feed', 'webp'),
      encode('blog', 'webp'),
      ...(fallback ? [encode('feed', fallback)] : []),
    ]);
    return { kind: 'image', contentType, files, width, height };
  } catch (error) {
    if (error instanceof DomainError || error instanceof MediaTooLargeError) throw error;
    throw fail.invalid('This image could not be read. It may be damaged: save it again and retry.');
  }
}

/**
 * What a page, a picture with script or an XML document starts with: never in a sound file we keep. Every tag in the
 * first KB (where browsers and tools sniff a type); in the rest only long markers, which compressed sound does not
 * hold by chance (a short one like `<a ` is in a 50 MB recording a few times over).
 */
const MARKUP_HEAD =
  /<(?:!doctype|html|head|body|script|iframe|frame|object|embed|svg|math|meta|link|style|form|img|a\s|\?xml|!--)|javascript:/iu;
const MARKUP_ANYWHERE = /<(?:!doctype|script|iframe|object)|javascript:/iu;
const HEAD_BYTES = 1024;
export const notAudio = () =>
  fail.invalid('This file is not audio we can play: its contents are not MP3, M4A or OGG sound. Export it again as MP3 and retry.', {
    file: 'Not playable audio',
  });

/** Whether the bytes hold markup (read as Latin-1, one character a byte, so no byte is skipped). */
export function holdsMarkup(bytes: Buffer): boolean {
  return MARKUP_HEAD.test(bytes.subarray(0, HEAD_BYTES).toString('latin1')) || MARKUP_ANYWHERE.test(bytes.toString('latin1'));
}

async function processAudio(id: string, bytes: Buffer, contentType: string, extension: MediaExtension): Promise<ProcessedUpload> {
  if (holdsMarkup(bytes)) throw notAudio();
  let durationSeconds: number;
  try {
    const { format } = await parseBuffer(bytes, { mimeType: contentType, size: bytes.length }, { duration: true, skipCovers: true });
    // A header alone (one frame and then anything) gives no duration: its bytes are not the sound its type says.
    if (format.duration === undefined || !Number.isFinite(format.duration) || format.duration <= 0) throw notAudio();
    durationSeconds = Math.round(format.duration * 10) / 10;
  } catch {
    throw notAudio();
  }
  const file: ProcessedFile = {
    variant: 'audio',
    key: mediaKey(id, 'audio', extension),
    contentType: MEDIA_CONTENT_TYPES[extension],
    bytes: bytes.length,
    data: bytes,
  };
  return { kind: 'audio', contentType, files: [file], durationSeconds };
}
