/** Media attached to feed posts. */

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const VIDEO_ID = /^[\w-]{11}$/u;

export function isHttpUrl(value: string): boolean {
  const url = parseUrl(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:');
}

/**
 * The privacy-enhanced embed address (no cookies until the reader presses play) of a
 * YouTube video link: youtube.com/watch?v=, youtu.be/, /shorts/, /live/ and /embed/
 * links. Null for anything else, so the caller can fall back to a plain link.
 */
export function youtubeEmbedUrl(value: string): string | null {
  const url = parseUrl(value.trim());
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined = null;
  if (host === 'youtu.be' || host === 'www.youtu.be') id = segments[0];
  else if (YOUTUBE_HOSTS.has(host)) {
    if (segments[0] === 'watch') id = url.searchParams.get('v');
    else if (segments[0] === 'shorts' || segments[0] === 'live' || segments[0] === 'embed') id = segments[1];
  }
  return id && VIDEO_ID.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
