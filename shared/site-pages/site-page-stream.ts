/**
 * A page of the public site (stream `page-<slug>`): About, Contact, Privacy, Terms, Community Guidelines, Help and
 * Support. Admins edit its title and Markdown; until then it shows the built-in text (defaults.ts).
 */
import { type CommandMetadata, type Decider, fail } from '../domain';

export type SitePageEvent = { type: 'SitePageEdited'; data: SitePageText & { slug: string; by: string; at: string } };

/**
 * `body` is the Markdown as written; `html` is it rendered and sanitised on the server (`renderSitePage`), so decide
 * stays pure and every read serves what was checked once, on write.
 */
export interface SitePageText {
  title: string;
  body: string;
  html: string;
}

export type SitePageCommand = { type: 'EditSitePage'; data: SitePageText & { slug: string }; metadata: CommandMetadata };

export interface SitePageState {
  title: string | null;
  body: string | null;
}

export const sitePageDecider: Decider<SitePageState, SitePageCommand, SitePageEvent> = {
  initialState: () => ({ title: null, body: null }),
  evolve: (_state, event) => ({ title: event.data.title, body: event.data.body }),
  decide(command, state) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    if (actor.role !== 'admin') throw fail.forbidden('Only admins can edit the site’s pages');
    const { slug, title, body, html } = command.data;
    if (title === state.title && body === state.body) return [];
    return [{ type: 'SitePageEdited', data: { slug, title, body, html, by: actor.id, at: now.toISOString() } }];
  },
};
