import { describe, expect, it } from 'vitest';
import { MAX_TAGS_PER_POST, TAG_MAX_LENGTH } from '../../../shared/feed/constants';
import { youtubeEmbedUrl } from '../../../shared/feed/media';
import { normalizeTags } from '../../../shared/feed/tags';

describe('normalizeTags', () => {
  it('trims, lowercases and strips the leading #', () => {
    expect(normalizeTags(['  #Radio ', 'TV', '##AM-Band'])).toEqual(['radio', 'tv', 'am-band']);
  });

  it('drops empties and duplicates, keeping the first occurrence in order', () => {
    expect(normalizeTags(['history', '', '   ', '#', 'History', '#history', 'radio'])).toEqual(['history', 'radio']);
  });

  it('collapses inner whitespace', () => {
    expect(normalizeTags(['golden   age\tof radio'])).toEqual(['golden age of radio']);
  });

  it(`keeps at most ${MAX_TAGS_PER_POST} tags of at most ${TAG_MAX_LENGTH} characters`, () => {
    const many = Array.from({ length: 15 }, (_, index) => `tag${index}`);
    expect(normalizeTags(many)).toEqual(many.slice(0, MAX_TAGS_PER_POST));
    expect(normalizeTags(['x'.repeat(50)])).toEqual(['x'.repeat(TAG_MAX_LENGTH)]);
  });

  it('counts the cap after dropping duplicates', () => {
    const tags = ['a', 'a', 'a', ...Array.from({ length: 10 }, (_, index) => `t${index}`)];
    expect(normalizeTags(tags)).toHaveLength(MAX_TAGS_PER_POST);
    expect(normalizeTags(tags)[0]).toBe('a');
  });

  it('returns an empty list for nothing', () => {
    expect(normalizeTags([])).toEqual([]);
  });
});

describe('youtubeEmbedUrl', () => {
  const embed = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';

  it.each([
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42',
    'http://m.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ?si=abc',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    'https://www.youtube.com/live/dQw4w9WgXcQ',
    'https://www.youtube.com/embed/dQw4w9WgXcQ',
    '  https://YOUTUBE.com/watch?v=dQw4w9WgXcQ  ',
  ])('turns %s into the privacy-enhanced embed', (url) => {
    expect(youtubeEmbedUrl(url)).toBe(embed);
  });

  it.each([
    'https://vimeo.com/123456',
    'https://www.youtube.com/channel/UC123',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>',
    'https://evil.example/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
    'not a url',
  ])('returns null for %s', (url) => {
    expect(youtubeEmbedUrl(url)).toBeNull();
  });
});
