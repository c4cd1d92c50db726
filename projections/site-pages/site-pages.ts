/**
 * The site pages as edited (docs/domain/site-pages.md): one document per edited page, keyed by its slug; and the
 * site's settings as admins set them (`site_settings`, one document), such as the zone event times are shown in.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const SITE_PAGES = 'site_pages';
export const SITE_SETTINGS = 'site_settings';

export type SitePageDocument = Positioned & {
  _id: string;
  title: string;
  body: string;
  html: string;
  updatedAt: string;
  updatedBy: string;
};

type SiteSettingsDocument = Positioned & { _id: string; timeZone: string; updatedAt: string; updatedBy: string };

export const sitePages = (store: DocumentStore) => store.collection<SitePageDocument>(SITE_PAGES);
const siteSettings = (store: DocumentStore) => store.collection<SiteSettingsDocument>(SITE_SETTINGS);

/** The zone event times are shown in: the one admins set, else `fallback` (the configuration's TIME_ZONE). */
export async function siteTimeZone(store: DocumentStore, fallback: string): Promise<string> {
  return (await siteSettings(store).findOne({ _id: 'settings' }))?.timeZone ?? fallback;
}

export const sitePagesProjection: Projection = {
  name: 'site-pages',
  // 2: the site's settings.
  version: 2,
  collections: [SITE_PAGES, SITE_SETTINGS],
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'site') {
      const { timeZone, by, at } = typed.event.data;
      await applyToDocument(siteSettings(store), typed.id, recorded.position, () => ({ timeZone, updatedAt: at, updatedBy: by }));
      return;
    }
    if (typed?.stream !== 'page') return;
    const { title, body, html, by, at } = typed.event.data;
    await applyToDocument(sitePages(store), typed.id, recorded.position, () => ({ title, body, html, updatedAt: at, updatedBy: by }));
  },
};
