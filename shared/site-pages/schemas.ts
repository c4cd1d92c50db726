/** The site pages' answers and input (docs/domain/site-pages.md). */
import * as v from 'valibot';
import { text } from '../text-schema';

export const SITE_PAGE_SLUGS = ['about', 'contact', 'privacy', 'terms', 'guidelines', 'help', 'support'] as const;
export type SitePageSlug = (typeof SITE_PAGE_SLUGS)[number];

export const SITE_PAGE_TITLE_MAX_LENGTH = 120;
export const SITE_PAGE_BODY_MAX_LENGTH = 50_000;

export const SitePageSlugSchema = v.picklist(SITE_PAGE_SLUGS, 'No such page');

export const SitePageSchema = v.object({
  slug: SitePageSlugSchema,
  title: v.string(),
  /** The Markdown as written, for the editor. */
  body: v.string(),
  /** The Markdown rendered and sanitised, for the page. */
  html: v.string(),
  /** null while the page shows its built-in text. */
  updatedAt: v.nullable(v.string()),
});
export type SitePage = v.InferOutput<typeof SitePageSchema>;

export const SitePageTextSchema = v.object({
  title: v.pipe(
    text('Title must be text'),
    v.trim(),
    v.nonEmpty('Title is required'),
    v.maxLength(SITE_PAGE_TITLE_MAX_LENGTH, `Title must be at most ${SITE_PAGE_TITLE_MAX_LENGTH} characters`),
  ),
  body: v.pipe(
    text('Text must be text'),
    v.trim(),
    v.nonEmpty('Text is required'),
    v.maxLength(SITE_PAGE_BODY_MAX_LENGTH, `Text must be at most ${SITE_PAGE_BODY_MAX_LENGTH.toLocaleString('en-US')} characters`),
  ),
});
export type SitePageInput = v.InferOutput<typeof SitePageTextSchema>;

export const SitePagePreviewRequestSchema = v.object({ body: SitePageTextSchema.entries.body });
export const SitePagePreviewSchema = v.object({ html: v.string() });
