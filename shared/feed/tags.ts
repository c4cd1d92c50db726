/** Tag normalisation shared by the composer (as tags are added) and the server (on submit). */
import { MAX_TAGS_PER_POST, TAG_MAX_LENGTH } from './constants';

/**
 * Trims, drops leading '#', lowercases and collapses inner whitespace; then drops
 * empties and duplicates, keeping the first occurrence. Over-long tags are cut to
 * {@link TAG_MAX_LENGTH} characters and only the first {@link MAX_TAGS_PER_POST} are kept.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const normalized = new Set<string>();
  for (const raw of tags) {
    if (normalized.size >= MAX_TAGS_PER_POST) break;
    const tag = normalizeTag(raw);
    if (tag) normalized.add(tag);
  }
  return [...normalized];
}

export function normalizeTag(raw: string): string {
  const tag = raw.trim().replace(/^#+/u, '').trim().toLowerCase().replace(/\s+/gu, ' ');
  return Array.from(tag).slice(0, TAG_MAX_LENGTH).join('').trimEnd();
}
