/**
 * YouTube videos in blog posts: the one form a post keeps them in (an iframe of the privacy-enhanced player, which
 * sets no cookie until the reader presses play, and which the site's CSP frame-src allows), made by the editor from
 * a video's address and enforced by the sanitiser on every save.
 */
import { youtubeEmbedUrl } from '../feed/media';

const EMBED_SOURCE = /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]{11}$/u;

/** Every attribute of a kept YouTube frame, `src` aside; `title` (the frame's name for screen readers) may be the author's. */
export const YOUTUBE_EMBED_ATTRIBUTES = {
  src: '',
  title: 'YouTube video',
  width: '560',
  height: '315',
  allow: 'accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen',
  allowfullscreen: '',
  loading: 'lazy',
  referrerpolicy: 'strict-origin-when-cross-origin',
} as const;

/**
 * The player's address for a YouTube video link or player address (watch?v=, youtu.be/, /shorts/, /live/, /embed/,
 * youtube-nocookie.com), with nothing else in it (no autoplay or other parameters); null for anything else.
 */
export function youtubeEmbedSource(address: string): string | null {
  const embed = youtubeEmbedUrl(address);
  return embed && EMBED_SOURCE.test(embed) ? embed : null;
}
