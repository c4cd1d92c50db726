/**
 * A reportable stream's open reports as its events change them (the rules that make those events: rules.ts): a
 * member's report adds them to the open reports, and staff's dismissal closes them all.
 */
import { withReporter } from './rules';

/** The open reports after a report (its member) or a dismissal (who dismissed them). */
export const openReportsAfter = (reportedBy: ReadonlySet<string>, event: { memberId: string } | { by: string }): ReadonlySet<string> =>
  'memberId' in event ? withReporter(reportedBy, event.memberId) : new Set();
