/**
 * What a post or event shows beside its text, as the moderation queues show it: staff judge the picture or the
 * recording itself, not its address. A picture in a bounded box (its size reserved when known), a recording or a
 * video with its player, a YouTube link as a link (no third-party frame in the staff's pages), any other link by its
 * site.
 */
import type { MediaType } from '../../shared/feed/constants';
import type { Media } from '../../shared/media/schemas';
import { Player, UploadView } from './upload-view';

export interface MediaPreviewProps {
  /** An upload: its kind decides, its size is reserved. */
  upload?: Media | null | undefined;
  mediaType?: MediaType | null | undefined;
  mediaUrl?: string | null | undefined;
  mediaTitle?: string | null | undefined;
  /** Whose media, for the accessible names: "the post by Rex Rude". */
  of: string;
}

/** A recording's player, uploaded or linked. */
const PLAYER = 'mt-2 w-full max-w-md';

const hostOf = (url: string) => {
  try {
    return new URL(url, window.location.origin).hostname;
  } catch {
    return url;
  }
};

export function MediaPreview({ upload, mediaType, mediaUrl, mediaTitle, of }: MediaPreviewProps) {
  const title = mediaTitle ?? undefined;
  const pictureName = title ?? `Picture shared with ${of}`;
  const recordingName = title ?? `Recording shared with ${of}`;
  if (upload)
    return (
      <UploadView
        upload={upload}
        alt={pictureName}
        audioLabel={recordingName}
        lazy
        imageClassName="mt-2 h-auto max-h-72 w-auto max-w-full rounded-lg border border-slate-200 object-contain dark:border-slate-700"
        audioClassName={PLAYER}
      />
    );
  if (!mediaUrl || !mediaType) return null;
  switch (mediaType) {
    case 'image':
      return (
        <img
          src={mediaUrl}
          alt={pictureName}
          loading="lazy"
          className="mt-2 max-h-72 w-auto max-w-full rounded-lg border border-slate-200 object-contain dark:border-slate-700"
        />
      );
    case 'audio':
      return <Player kind="audio" src={mediaUrl} label={recordingName} className={PLAYER} />;
    case 'video':
      return (
        <Player
          kind="video"
          src={mediaUrl}
          label={title ?? `Video shared with ${of}`}
          className="mt-2 max-h-72 w-full max-w-md rounded-lg"
        />
      );
    default:
      return (
        <a
          href={mediaUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-2 block max-w-md rounded-lg border border-slate-200 p-3 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          <span className="block font-medium break-words">{title ?? (mediaType === 'youtube' ? 'YouTube video' : mediaUrl)}</span>
          <span className="block truncate text-sm text-slate-600 dark:text-slate-400">{hostOf(mediaUrl)}</span>
        </a>
      );
  }
}
