/** The site pages' read model, as the rest of the site reads it (docs/architecture.md#read-model-ownership). */
export { sitePagesProjection, sitePages, siteTimeZone } from './site-pages';
