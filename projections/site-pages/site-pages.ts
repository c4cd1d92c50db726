/** The site pages as edited (docs/domain/site-pages.md): one document per edited page, keyed by its slug. */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const SITE_PAGES = 'site_pages';

export type SitePageDocument = Positioned & {
  _id: string;
  title: string;
  body: string;
  html: string;
  updatedAt: string;
  updatedBy: string;
};

export const sitePages = (store: DocumentStore) => store.collection<SitePageDocument>(SITE_PAGES);

export const sitePagesProjection: Projection = {
  name: 'site-pages',
  version: 1,
  collections: [SITE_PAGES],
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'page') return;
    const { title, body, html, by, at } = typed.event.data;
    await applyToDocument(sitePages(store), typed.id, recorded.position, () => ({ title, body, html, updatedAt: at, updatedBy: by }));
  },
};
