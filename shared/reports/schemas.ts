/** The reports queue (docs/domain/reports.md): open reports, one entry per reported post or comment. */
import * as v from 'valibot';
import { COMMENT_TARGET_TYPES } from '../comments/constants';
import { text } from '../text-schema';
import { MEDIA_TYPES } from '../feed/constants';
import { MediaSchema } from '../media/schemas';

export const REPORT_TARGET_TYPES = ['post', 'comment', 'topic', 'reply'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
/** How much of the reported text the queue shows. */
export const REPORT_EXCERPT_LENGTH = 280;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** What a reported post shows beside its text, so staff see what they judge: a link, or an upload (`upload`). */
export const ReportMediaSchema = v.object({
  mediaType: v.picklist(MEDIA_TYPES),
  mediaUrl: v.string(),
  mediaTitle: v.nullable(v.string()),
  upload: v.optional(MediaSchema),
});
export type ReportMedia = v.InferOutput<typeof ReportMediaSchema>;

export const ReportGroupSchema = v.object({
  targetType: v.picklist(REPORT_TARGET_TYPES),
  targetId: v.string(),
  excerpt: v.string(),
  /** A post's media (absent when it has none, and for comments). */
  media: v.optional(ReportMediaSchema),
  author: v.object({ id: v.string(), name: v.string() }),
  /** The reasons given, oldest first; a report without one adds none. */
  reasons: v.array(v.string()),
  reporters: count,
  firstReportedAt: v.string(),
  /** For a comment: the thread it is in; for a discussion reply: its topic (`targetType: 'topic'`). */
  thread: v.nullable(v.object({ targetType: v.picklist([...COMMENT_TARGET_TYPES, 'topic']), targetId: v.string() })),
  /** Where the content is read on the site (discussion topics and replies). */
  link: v.optional(v.string()),
});
export type ReportGroup = v.InferOutput<typeof ReportGroupSchema>;

export const ReportTargetParams = v.object({
  targetType: v.pipe(text(), v.picklist(REPORT_TARGET_TYPES, 'Reports are of posts, comments, topics or replies')),
  targetId: v.pipe(text(), v.uuid('No open reports for this content')),
});
