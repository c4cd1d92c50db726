/**
 * The reports queue (docs/domain/reports.md): `reports`, one document per reported post or comment while its
 * reports are open, keyed `<targetType>:<targetId>`. Staff dismissing the reports, removing the content, or a post
 * leaving the feed closes them. Applied after the feed and comments projections, whose documents give the excerpt.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import type { ReportGroup, ReportTargetType } from '../../shared/reports/schemas';
import { REPORT_EXCERPT_LENGTH } from '../../shared/reports/schemas';
import { ROOMS } from '../../shared/socket-messages';
import { feedPosts } from '../feed/feed';
import { commentsCollection } from '../comments/comments';

export const REPORTS = 'reports';

export type ReportDocument = Positioned & Omit<ReportGroup, 'targetType' | 'targetId'> & { _id: string; targetType: ReportTargetType; targetId: string; reporterIds: string[] };

export const reportsCollection = (store: DocumentStore) => store.collection<ReportDocument>(REPORTS);
export const reportKey = (targetType: ReportTargetType, targetId: string) => `${targetType}:${targetId}`;
/** The queue's order: reported first, first seen. */
export const QUEUE_ORDER = { firstReportedAt: 1, _id: 1 } as const;

const excerptOf = (text: string) => (text.length > REPORT_EXCERPT_LENGTH ? `${text.slice(0, REPORT_EXCERPT_LENGTH - 1)}…` : text);

type Report = { memberId: string; reason?: string; at: string };

/** The events that open, change or close an entry. */
const REPORT_EVENTS = new Set(['PostReported', 'PostReportsDismissed', 'PostDeleted', 'PostRejected', 'CommentReported', 'CommentReportsDismissed', 'CommentRemoved', 'CommentEdited']);

export const reportsProjection: Projection = {
  name: 'reports',
  version: 1,
  collections: [REPORTS],
  async setup(store) {
    await reportsCollection(store).createIndex({ firstReportedAt: 1, _id: 1 });
  },
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'post' && typed?.stream !== 'comment') return;
    // Likes, shares and the rest never touch the queue: no reads for them.
    if (!REPORT_EVENTS.has(typed.event.type)) return;
    const reports = reportsCollection(store);
    const at = recorded.position;
    const targetType: ReportTargetType = typed.stream;
    const key = reportKey(targetType, typed.id);
    const before = await reports.findOne({ _id: key });

    /** Adds one member's report, opening the entry with what the reported content now says. */
    const report = async ({ memberId, reason, at: reportedAt }: Report, content: () => Promise<Pick<ReportDocument, 'excerpt' | 'author' | 'thread'> | null>) => {
      const opened = before ? null : await content();
      await applyToDocument(reports, key, at, (current) => {
        const base = current ?? (opened && { targetType, targetId: typed.id, ...opened, reasons: [] as string[], reporters: 0, reporterIds: [] as string[], firstReportedAt: reportedAt });
        if (!base || base.reporterIds.includes(memberId)) return base;
        return { ...base, reasons: reason ? [...base.reasons, reason] : base.reasons, reporters: base.reporters + 1, reporterIds: [...base.reporterIds, memberId] };
      });
    };
    const close = () => applyToDocument(reports, key, at, () => null);

    if (typed.stream === 'post') {
      const { event } = typed;
      if (event.type === 'PostReported')
        await report(event.data, async () => {
          const post = await feedPosts(store).findOne({ _id: typed.id });
          return post && { excerpt: excerptOf(post.content), author: { id: post.author.id, name: post.author.name }, thread: null };
        });
      else if (event.type === 'PostReportsDismissed' || event.type === 'PostDeleted' || event.type === 'PostRejected') await close();
    } else {
      const { event } = typed;
      if (event.type === 'CommentReported')
        await report(event.data, async () => {
          const comment = await commentsCollection(store).findOne({ _id: typed.id });
          return comment && { excerpt: excerptOf(comment.content), author: { id: comment.author.id, name: comment.author.name }, thread: { targetType: comment.targetType, targetId: comment.targetId } };
        });
      else if (event.type === 'CommentReportsDismissed' || event.type === 'CommentRemoved') await close();
      else if (event.type === 'CommentEdited' && before) await applyToDocument(reports, key, at, (current) => current && { ...current, excerpt: excerptOf(event.data.content) });
    }

    const after = await reports.findOne({ _id: key });
    if (!before && !after) return;
    const open = await reports.countDocuments({});
    notify({ message: 'reports:changed', rooms: [ROOMS.staff], payload: { open } });
    notify({ message: 'pending:changed', rooms: [ROOMS.staff], payload: { reports: open } });
  },
};
