/**
 * An upload as a page shows it (docs/domain/media.md): a picture with its size reserved, so the page keeps its room
 * while it loads, or a recording with its player. Each place gives its own names and look.
 */
import type { Media } from '../../shared/media/schemas';

/** A picture whose size is known (an upload, a picture put in a blog post). */
export function SizedPicture({
  src,
  size,
  alt,
  className,
  lazy = false,
}: {
  src: string;
  size: { width?: number | undefined; height?: number | undefined };
  alt: string;
  className: string;
  /** Loaded once it nears the screen (a list's pictures). */
  lazy?: boolean;
}) {
  return <img src={src} width={size.width} height={size.height} alt={alt} loading={lazy ? 'lazy' : undefined} className={className} />;
}

/** A recording's or a video's player, named for assistive technology. */
export function Player({ kind, src, label, className }: { kind: 'audio' | 'video'; src: string; label: string; className: string }) {
  const Tag = kind;
  return <Tag src={src} controls preload="metadata" aria-label={label} className={className} />;
}

/** An upload of either kind; nothing for none. */
export function UploadView({
  upload,
  alt,
  audioLabel,
  imageClassName,
  audioClassName,
  lazy = false,
}: {
  upload: Media | null | undefined;
  /** The picture's text for those who cannot see it. */
  alt: string;
  /** The recording player's name; left out, a recording is not shown. */
  audioLabel?: string | undefined;
  imageClassName: string;
  audioClassName: string;
  lazy?: boolean;
}) {
  if (upload?.kind === 'image') return <SizedPicture src={upload.url} size={upload} alt={alt} className={imageClassName} lazy={lazy} />;
  if (upload?.kind === 'audio' && audioLabel) return <Player kind="audio" src={upload.url} label={audioLabel} className={audioClassName} />;
  return null;
}
