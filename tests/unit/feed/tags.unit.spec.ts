import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { MAX_TAGS_PER_ITEM, TAG_MAX_LENGTH } from '../../../shared/feed/constants';
import { youtubeEmbedUrl } from '../../../shared/feed/media';
import { TagsSchema } from '../../../shared/feed/schemas';
import { EventSchema } from '../../../shared/events/schemas';
import { normalizeTags, tagRefusal } from '../../../shared/feed/tags';

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

  it('cuts nothing: the limits are the schema’s, which refuses instead', () => {
    const many = Array.from({ length: 15 }, (_, index) => `tag${index}`);
    expect(normalizeTags(many)).toEqual(many);
    expect(normalizeTags(['x'.repeat(50)])).toEqual(['x'.repeat(50)]);
  });

  it('returns an empty list for nothing', () => {
    expect(normalizeTags([])).toEqual([]);
  });
});

describe('the tag limits', () => {
  const tags = (count: number, length = 5) => Array.from({ length: count }, (_, index) => `${index}`.padStart(length, 't'));
  const fields = (result: v.SafeParseResult<v.GenericSchema>) =>
    result.success ? {} : Object.fromEntries(result.issues.map((issue) => [v.getDotPath(issue) ?? '', issue.message]));

  it(`accepts ${MAX_TAGS_PER_ITEM} tags of ${TAG_MAX_LENGTH} characters`, () => {
    expect(v.parse(TagsSchema, tags(MAX_TAGS_PER_ITEM, TAG_MAX_LENGTH))).toHaveLength(MAX_TAGS_PER_ITEM);
  });

  it('refuses one tag more, or one character more, with the message the forms show', () => {
    expect(v.safeParse(TagsSchema, tags(MAX_TAGS_PER_ITEM + 1)).issues?.map((issue) => issue.message)).toEqual(['At most 10 tags']);
    expect(v.safeParse(TagsSchema, ['x'.repeat(TAG_MAX_LENGTH + 1)]).issues?.map((issue) => issue.message)).toEqual([
      'Tags must be at most 40 characters',
    ]);
  });

  it('counts after normalisation and without repeats, as the reader sees the list', () => {
    const repeated = [...tags(MAX_TAGS_PER_ITEM), ...tags(3).map((tag) => ` #${tag.toUpperCase()} `)];
    expect(v.parse(TagsSchema, repeated)).toEqual(tags(MAX_TAGS_PER_ITEM));
    // The leading '#' and outer spaces are not the tag's characters.
    expect(v.parse(TagsSchema, [`  #${'x'.repeat(TAG_MAX_LENGTH)}  `])).toEqual(['x'.repeat(TAG_MAX_LENGTH)]);
    // An emoji is one character to its writer.
    expect(v.parse(TagsSchema, ['📻'.repeat(TAG_MAX_LENGTH)])).toEqual(['📻'.repeat(TAG_MAX_LENGTH)]);
  });

  it('holds for events, whose tags are trimmed but keep their case', () => {
    const event = { title: 'Reunion', startDate: '2030-01-01T18:00:00Z', endDate: '2030-01-01T21:00:00Z' };
    expect(v.parse(EventSchema, { ...event, tags: [' Radio ', 'Radio', 'radio'] }).tags).toEqual(['Radio', 'radio']);
    expect(fields(v.safeParse(EventSchema, { ...event, tags: tags(MAX_TAGS_PER_ITEM + 1) }))).toEqual({ tags: 'At most 10 tags' });
    expect(fields(v.safeParse(EventSchema, { ...event, tags: ['x'.repeat(TAG_MAX_LENGTH + 1)] }))).toEqual({
      tags: 'Tags must be at most 40 characters',
    });
  });

  it('tells a form why a typed tag cannot be added', () => {
    expect(tagRefusal([], 'x'.repeat(TAG_MAX_LENGTH))).toBeNull();
    expect(tagRefusal([], 'x'.repeat(TAG_MAX_LENGTH + 1))).toBe('Tags must be at most 40 characters');
    expect(tagRefusal(tags(MAX_TAGS_PER_ITEM), 'one more')).toBe('At most 10 tags');
    // Typing a tag already there adds nothing, so it is no reason to refuse.
    expect(tagRefusal(tags(MAX_TAGS_PER_ITEM), tags(1)[0]!)).toBeNull();
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
