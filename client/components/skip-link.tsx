/** The first Tab stop of every page: one markup with the server's public pages (shared/ui/skip-link.tsx). */
export { MAIN_CONTENT_ID, SKIP_LINK_CLASS, SkipLink } from '../../shared/ui/skip-link';
