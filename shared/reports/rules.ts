/**
 * The rules of reporting, alike for every content a member may report (a feed post, a comment, a discussion topic
 * or reply; docs/domain/reports.md): never one's own, once per member until staff dismiss the reports, and only
 * staff dismiss. Each decider asks these and puts the answer in its own event.
 */
import { type Actor, type Role, fail } from '../domain';

/** What a reportable stream keeps of its open reports. */
export interface ReportedState {
  authorId: string;
  /** The members who reported it since its reports were last dismissed. */
  reportedBy: ReadonlySet<string>;
}

const DISMISSERS: readonly Role[] = ['admin', 'staff'];

/** A member's report of `what` (its name in the refusal): the event's data, or null when they reported it already. */
export function reportOf(
  state: ReportedState,
  actor: Actor,
  what: string,
  reason: string | undefined,
  at: string,
): { memberId: string; reason?: string; at: string } | null {
  if (actor.id === state.authorId) throw fail.rule(`You cannot report your own ${what}`);
  if (state.reportedBy.has(actor.id)) return null;
  return { memberId: actor.id, ...(reason ? { reason } : {}), at };
}

/** Staff closing the open reports, the content kept: the event's data, or null when none are open. */
export function dismissalOf(state: ReportedState, actor: Actor, at: string): { by: string; at: string } | null {
  if (!DISMISSERS.includes(actor.role)) throw fail.forbidden('Only admins and staff can dismiss reports');
  return state.reportedBy.size === 0 ? null : { by: actor.id, at };
}

/** The members who reported it, after one more report. */
export const withReporter = (reportedBy: ReadonlySet<string>, memberId: string): ReadonlySet<string> => new Set(reportedBy).add(memberId);
