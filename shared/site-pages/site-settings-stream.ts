/**
 * The site's settings (stream `site-settings`): for now its time zone, in which every event time is shown and named
 * (docs/domain/events.md#time-zones). Admins set it; until then it is the configuration's TIME_ZONE.
 */
import { type CommandMetadata, type Decider, fail } from '../domain';

export type SiteSettingsEvent = { type: 'SiteTimeZoneSet'; data: { timeZone: string; by: string; at: string } };

export type SiteSettingsCommand = { type: 'SetSiteTimeZone'; data: { timeZone: string }; metadata: CommandMetadata };

export interface SiteSettingsState {
  timeZone: string | null;
}

export const siteSettingsDecider: Decider<SiteSettingsState, SiteSettingsCommand, SiteSettingsEvent> = {
  initialState: () => ({ timeZone: null }),
  evolve: (_state, event) => ({ timeZone: event.data.timeZone }),
  decide(command, state) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    if (actor.role !== 'admin') throw fail.forbidden('Only admins can change the site’s settings');
    const { timeZone } = command.data;
    if (timeZone === state.timeZone) return [];
    return [{ type: 'SiteTimeZoneSet', data: { timeZone, by: actor.id, at: now.toISOString() } }];
  },
};
