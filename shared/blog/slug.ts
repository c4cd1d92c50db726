/**
 * A blog post's address, `/blog/<slug>` (docs/domain/blog.md#addresses): made from the title, editable by staff,
 * unique across posts (a clash gets -2, -3…). Pure helpers, shared by the server, the projection and the client.
 */
import * as v from 'valibot';
import { text } from '../text-schema';
import { isUuid } from '../ids';

export const SLUG_MAX_LENGTH = 100;
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;
/** What a title with no letters or digits becomes. */
const FALLBACK = 'post';

/** "Wave Tower, 1962: the Story!" → "wave-tower-1962-the-story"; accents lose their marks. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .slice(0, SLUG_MAX_LENGTH - 4)
    .replace(/-+$/u, '');
  // A slug never looks like a post id: `/blog/<uuid>` answers by id.
  return slug && !isUuid(slug) ? slug : FALLBACK;
}

/** The n-th candidate for a wanted slug: `base`, `base-2`, `base-3`… */
export const slugCandidate = (base: string, n: number) => (n <= 1 ? base : `${base}-${n}`);

/** A slug as staff type it: trimmed and lower-cased; letters, digits and single dashes. */
export const SlugSchema = v.pipe(
  text('Slug must be text'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('Slug is required'),
  v.maxLength(SLUG_MAX_LENGTH, `Slug must be at most ${SLUG_MAX_LENGTH} characters`),
  v.regex(SLUG_PATTERN, 'Slug may hold only letters, digits and dashes between them'),
  v.check((slug) => !isUuid(slug), 'Slug must not look like a post id'),
);
