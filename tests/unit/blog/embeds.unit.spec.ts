import { describe, expect, it } from 'vitest';
import { youtubeEmbedSource } from '../../../shared/blog/embeds';
import { sanitizeBlogHtml } from '../../../shared/blog/sanitize';

const PLAYER = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';

describe('youtubeEmbedSource', () => {
  it('turns every usual YouTube address into the privacy-enhanced player, without its parameters', () => {
    for (const address of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s&list=PL1',
      'http://youtube.com/watch?v=dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube.com/live/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1',
      `  ${PLAYER}  `,
    ]) {
      expect(youtubeEmbedSource(address), address).toBe(PLAYER);
    }
  });

  it('refuses what is not a YouTube video', () => {
    for (const address of [
      '',
      'dQw4w9WgXcQ',
      'https://www.youtube.com/',
      'https://www.youtube.com/watch?v=short',
      'https://www.youtube.com/channel/UC1234567890',
      'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
      'https://evil.example/embed/dQw4w9WgXcQ',
      'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
      'ftp://youtu.be/dQw4w9WgXcQ',
    ]) {
      expect(youtubeEmbedSource(address), address).toBeNull();
    }
  });

  it('gives an address the sanitiser keeps as it is', () => {
    const frame = `<iframe src="${youtubeEmbedSource('https://youtu.be/dQw4w9WgXcQ')}"></iframe>`;
    expect(sanitizeBlogHtml(frame)).toContain(`src="${PLAYER}"`);
  });
});
