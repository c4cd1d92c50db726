/** Tag normalisation and limits shared by the forms (as tags are added) and the server (on submit). */
import { MAX_TAGS_PER_ITEM, TAG_MAX_LENGTH } from './constants';

export const TOO_MANY_TAGS = `At most ${MAX_TAGS_PER_ITEM} tags`;
export const TAG_TOO_LONG = `Tags must be at most ${TAG_MAX_LENGTH} characters`;

/**
 * Normalises each tag (by default as the feed does, see `normalizeTag`), then drops
 * empties and duplicates, keeping the first occurrence. Nothing is cut: the limits
 * (`MAX_TAGS_PER_ITEM`, `TAG_MAX_LENGTH`) are checked on the result by `tagsSchema`,
 * so an over-long or extra tag is refused rather than silently changed.
 */
export function normalizeTags(tags: readonly string[], normalize: (tag: string) => string = normalizeTag): string[] {
  return [...new Set(tags.map((tag) => normalize(tag)).filter(Boolean))];
}

/** Trims, drops leading '#', lowercases and collapses inner whitespace. */
export function normalizeTag(raw: string): string {
  return raw.trim().replace(/^#+/u, '').trim().toLowerCase().replace(/\s+/gu, ' ');
}

/** Characters as a person counts them in a tag (code points, so an emoji is one). */
export const tagLength = (tag: string) => Array.from(tag).length;

/** Why a form may not add the normalised `tag` to `tags`, or null when it may: the limits `tagsSchema` checks on submit. */
export function tagRefusal(tags: readonly string[], tag: string): string | null {
  if (tagLength(tag) > TAG_MAX_LENGTH) return TAG_TOO_LONG;
  if (!tags.includes(tag) && tags.length >= MAX_TAGS_PER_ITEM) return TOO_MANY_TAGS;
  return null;
}
