/** The site pages' answers and input (docs/domain/site-pages.md). */
import * as v from 'valibot';
import { text, writtenText } from '../text-schema';
import { canonicalTimeZone } from '../events/event-times';

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
  title: writtenText('Title', 'Title is required', SITE_PAGE_TITLE_MAX_LENGTH),
  body: writtenText('Text', 'Text is required', SITE_PAGE_BODY_MAX_LENGTH),
});
export type SitePageInput = v.InferOutput<typeof SitePageTextSchema>;

export const SitePagePreviewRequestSchema = v.object({ body: SitePageTextSchema.entries.body });
export const SitePagePreviewSchema = v.object({ html: v.string() });

/** GET /api/site: what every page and client needs to know of the site itself. */
export const SiteSchema = v.object({
  name: v.string(),
  description: v.string(),
  /** IANA name of the zone every event time is shown and named in (`America/Chicago`). */
  timeZone: v.string(),
});
export type Site = v.InferOutput<typeof SiteSchema>;

/** PATCH /api/admin/site (admins): a zone Intl knows, by its IANA name; stored as Intl spells it. */
export const SiteSettingsSchema = v.object({
  timeZone: v.pipe(
    text('Time zone must be text'),
    v.trim(),
    v.nonEmpty('Time zone is required'),
    v.maxLength(64, 'Time zone must be at most 64 characters'),
    v.check((zone) => canonicalTimeZone(zone) !== null, 'Time zone must be an IANA time zone such as America/Chicago'),
    v.transform((zone) => canonicalTimeZone(zone)!),
  ),
});
