/**
 * The reports queue (docs/domain/reports.md): `reports`, one document per reported post or comment while its
 * reports are open, keyed `<targetType>:<targetId>`. Staff dismissing the reports, removing the content, or a post
 * leaving the feed closes them. An entry opens with an excerpt of what is reported, which this projection keeps itself
 * from the posts', comments' and discussions' own events in `report_subjects` (each one that can be reported), and
 * names its author as they are when read, from `report_authors` (kept from the members' own events). A reporter's
 * erasure takes their reasons out of the entries (docs/domain/members.md#erasure).
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent, type TypedEvent } from '../../platform/projections/typed-event';
import { bylineChange, type BylineDocument } from '../../shared/members/byline';
import type { MemberEvent } from '../../shared/members/member-stream';
import type { ReportGroup, ReportMedia, ReportTargetType } from '../../shared/reports/schemas';
import { REPORT_EXCERPT_LENGTH } from '../../shared/reports/schemas';
import { ROOMS } from '../../shared/socket-messages';
import { htmlToText } from '../../shared/blog/excerpt';
import { replyLink, topicLink } from '../../shared/discussions/links';

export const REPORTS = 'reports';
export const REPORT_SUBJECTS = 'report_subjects';
export const REPORT_AUTHORS = 'report_authors';

/**
 * `reasonBy`: who gave each of `reasons`, so that an erased reporter's words leave with them. `author`: whose content it
 * is (named from `report_authors` when read).
 */
export type ReportDocument = Positioned &
  Omit<ReportGroup, 'targetType' | 'targetId' | 'author'> & {
    _id: string;
    author: { id: string };
    targetType: ReportTargetType;
    targetId: string;
    reporterIds: string[];
    reasonBy: string[];
  };
/** A post or comment as an entry opens with it, keyed as its entry would be. */
type SubjectText = Pick<ReportGroup, 'excerpt' | 'media'>;
/** `revision`: a member's edit of their approved post held for review, which becomes the text once approved. */
type SubjectDocument = Positioned &
  SubjectText &
  Pick<ReportGroup, 'thread' | 'link'> & { _id: string; authorId: string; revision?: SubjectText };
/** An author's byline, until they are erased. */
type AuthorDocument = Positioned & BylineDocument;

export const reportsCollection = (store: DocumentStore) => store.collection<ReportDocument>(REPORTS);
const subjects = (store: DocumentStore) => store.collection<SubjectDocument>(REPORT_SUBJECTS);
export const reportAuthors = (store: DocumentStore) => store.collection<AuthorDocument>(REPORT_AUTHORS);
export const reportKey = (targetType: ReportTargetType, targetId: string) => `${targetType}:${targetId}`;
/** The queue's order: reported first, first seen. */
export const QUEUE_ORDER = { firstReportedAt: 1, _id: 1 } as const;
/** Entries in the queue: the admin dashboard's "reported content" and the staff's badge. */
export const openReportCount = (store: DocumentStore) => reportsCollection(store).countDocuments({});

const excerptOf = (text: string) => (text.length > REPORT_EXCERPT_LENGTH ? `${text.slice(0, REPORT_EXCERPT_LENGTH - 1)}…` : text);

/** A post's media as the queue shows it; undefined when it has none. */
function mediaOf(data: {
  mediaType: ReportMedia['mediaType'] | null;
  mediaUrl: string | null;
  mediaTitle: string | null;
  media?: ReportMedia['upload'];
}): ReportMedia | undefined {
  if (data.media)
    return {
      mediaType: data.media.kind === 'audio' ? 'audio' : 'image',
      mediaUrl: data.media.url,
      mediaTitle: data.mediaTitle,
      upload: data.media,
    };
  return data.mediaType && data.mediaUrl ? { mediaType: data.mediaType, mediaUrl: data.mediaUrl, mediaTitle: data.mediaTitle } : undefined;
}

/** A post's text as the queue shows it: its excerpt and media. */
const postText = (data: Parameters<typeof mediaOf>[0] & { content: string }): SubjectText => {
  const media = mediaOf(data);
  return { excerpt: excerptOf(data.content), ...(media ? { media } : {}) };
};
/** A document with another text in place of its own (media left off when the new text has none). */
function withText<T extends SubjectText>(document: T, text: SubjectText): T {
  const { media: _replaced, ...rest } = document;
  return { ...rest, ...text } as T;
}

type Report = { memberId: string; reason?: string; at: string };

/** The events that open, change or close an entry, or make or change what can be reported. */
const REPORT_EVENTS = new Set([
  'PostSubmitted',
  'PostEdited',
  'PostRevisionSubmitted',
  'PostRevisionApproved',
  'PostRevisionRejected',
  'PostReported',
  'PostReportsDismissed',
  'PostDeleted',
  'PostRejected',
  'CommentWritten',
  'CommentReported',
  'CommentReportsDismissed',
  'CommentRemoved',
  'CommentEdited',
  'TopicStarted',
  'TopicEdited',
  'TopicReported',
  'TopicReportsDismissed',
  'TopicRemoved',
  'ReplyPosted',
  'ReplyEdited',
  'ReplyReported',
  'ReplyReportsDismissed',
  'ReplyDeleted',
]);

async function tellStaff(store: DocumentStore, notify: ProjectionContext['notify']) {
  const open = await openReportCount(store);
  notify({ message: 'reports:changed', rooms: [ROOMS.staff], payload: { open } });
  notify({ message: 'pending:changed', rooms: [ROOMS.staff], payload: { reports: open } });
}

/** Keeps what an entry would open with: each post and comment while it can be reported. */
async function keepSubject({ event }: TypedEvent, key: string, at: number, store: DocumentStore) {
  switch (event.type) {
    case 'PostSubmitted':
      return applyToDocument(subjects(store), key, at, () => ({ ...postText(event.data), authorId: event.data.authorId, thread: null }));
    // Staff judge what the post now says: an edit applied at once, or a held one once approved.
    case 'PostEdited':
      return applyToDocument(subjects(store), key, at, (current) => current && withText(current, postText(event.data)));
    case 'PostRevisionSubmitted':
      return applyToDocument(subjects(store), key, at, (current) => current && { ...current, revision: postText(event.data) });
    case 'PostRevisionApproved':
      return applyToDocument(subjects(store), key, at, (current) => {
        if (!current?.revision) return current;
        const { revision, ...rest } = current;
        return withText(rest, revision);
      });
    case 'PostRevisionRejected':
      return applyToDocument(subjects(store), key, at, (current) => {
        if (!current?.revision) return current;
        const { revision: _dropped, ...rest } = current;
        return rest;
      });
    case 'CommentWritten':
      return applyToDocument(subjects(store), key, at, () => ({
        excerpt: excerptOf(event.data.content),
        authorId: event.data.authorId,
        thread: { targetType: event.data.targetType, targetId: event.data.targetId },
      }));
    case 'CommentEdited':
      return applyToDocument(subjects(store), key, at, (current) => current && { ...current, excerpt: excerptOf(event.data.content) });
    // Discussions: a topic by its title and opening words, a reply by its words (as plain text), each with its place.
    case 'TopicStarted':
      return applyToDocument(subjects(store), key, at, () => ({
        excerpt: topicExcerpt(event.data),
        authorId: event.data.authorId,
        thread: null,
        link: topicLink(event.data.id),
      }));
    case 'TopicEdited':
      return applyToDocument(subjects(store), key, at, (current) => current && { ...current, excerpt: topicExcerpt(event.data) });
    case 'ReplyPosted':
      return applyToDocument(subjects(store), key, at, () => ({
        excerpt: excerptOf(htmlToText(event.data.content)),
        authorId: event.data.authorId,
        thread: { targetType: 'topic' as const, targetId: event.data.topicId },
        link: replyLink(event.data.topicId, event.data.id),
      }));
    case 'ReplyEdited':
      return applyToDocument(
        subjects(store),
        key,
        at,
        (current) => current && { ...current, excerpt: excerptOf(htmlToText(event.data.content)) },
      );
    case 'PostDeleted':
    case 'CommentRemoved':
    case 'TopicRemoved':
    case 'ReplyDeleted':
      return applyToDocument(subjects(store), key, at, () => null);
  }
}

const topicExcerpt = ({ title, content }: { title: string; content: string }) => excerptOf(`${title}: ${htmlToText(content)}`);

/** An erased member's reasons leave the entries they reported (their report still counts). */
async function forgetReasons(memberId: string, at: number, store: DocumentStore) {
  const reports = reportsCollection(store);
  for (const { _id } of await reports.find({ reporterIds: memberId }, { fields: ['_id'] })) {
    await applyToDocument(reports, _id, at, (current) => {
      if (!current) return current;
      const kept = current.reasons.map((reason, index) => ({ reason, by: current.reasonBy[index] })).filter(({ by }) => by !== memberId);
      return { ...current, reasons: kept.map(({ reason }) => reason), reasonBy: kept.map(({ by }) => by ?? '') };
    });
  }
}

/**
 * An entry names its author as they are now: their byline here, which goes when they are erased, so their entries read
 * "Former member". When they chose that their content goes, its entries close and its subjects go
 * (docs/domain/members.md#erasure): found by their author, as erasures are rare.
 */
async function followAuthor(memberId: string, event: MemberEvent, at: number, { store, notify, live }: ProjectionContext) {
  const change = bylineChange(event);
  if (!change) return;
  const reports = reportsCollection(store);
  // The queue is what staff have yet to judge: read through, not indexed.
  const open =
    event.type === 'MemberErased' || (live && event.type === 'MemberProfileChanged')
      ? await reports.find({ 'author.id': memberId }, { fields: ['_id'] })
      : [];
  if (event.type === 'MemberErased') {
    await forgetReasons(memberId, at, store);
    if (event.data.content === 'removed') {
      for (const { _id } of open) await applyToDocument(reports, _id, at, () => null);
      for (const { _id } of await subjects(store).find({ authorId: memberId }, { fields: ['_id'] }))
        await applyToDocument(subjects(store), _id, at, () => null);
    }
  }
  await applyToDocument(reportAuthors(store), memberId, at, (current) => {
    const byline = change(current?.byline ?? null);
    return byline && { byline };
  });
  // Staff see the queue name them anew.
  if (live && open.length > 0) await tellStaff(store, notify);
}

export const reportsProjection: Projection = {
  name: 'reports',
  // 3: authors list their open entries and subjects; 4: reasonBy, who gave each reason.
  // 7: discussion topics and replies.
  // 8: authors named when read; subjects found by author for an erasure (authors listed every subject they wrote).
  version: 8,
  collections: [REPORTS, REPORT_SUBJECTS, REPORT_AUTHORS],
  async setup(store) {
    await reportsCollection(store).createIndex({ firstReportedAt: 1, _id: 1 });
    await subjects(store).createIndex({ authorId: 1 });
  },
  async apply(recorded, context) {
    const { store, notify, live } = context;
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member') return followAuthor(typed.id, typed.event, recorded.position, context);
    if (typed?.stream !== 'post' && typed?.stream !== 'comment' && typed?.stream !== 'topic' && typed?.stream !== 'reply') return;
    // Likes, shares and the rest never touch the queue: no reads for them.
    if (!REPORT_EVENTS.has(typed.event.type)) return;
    const reports = reportsCollection(store);
    const at = recorded.position;
    const targetType: ReportTargetType = typed.stream;
    const key = reportKey(targetType, typed.id);
    const before = await reports.findOne({ _id: key });
    await keepSubject(typed, key, at, store);

    /** Adds one member's report, opening the entry with what the reported content now says. */
    const report = async ({ memberId, reason, at: reportedAt }: Report) => {
      const subject = before ? null : await subjects(store).findOne({ _id: key });
      const opened = subject && {
        targetType,
        targetId: typed.id,
        excerpt: subject.excerpt,
        ...(subject.media ? { media: subject.media } : {}),
        author: { id: subject.authorId },
        thread: subject.thread,
        ...(subject.link ? { link: subject.link } : {}),
        firstReportedAt: reportedAt,
      };
      await applyToDocument(reports, key, at, (current) => {
        const base =
          current ??
          (opened && { ...opened, reasons: [] as string[], reasonBy: [] as string[], reporters: 0, reporterIds: [] as string[] });
        if (!base || base.reporterIds.includes(memberId)) return base;
        const given = reason ? { reasons: [...base.reasons, reason], reasonBy: [...base.reasonBy, memberId] } : {};
        return { ...base, ...given, reporters: base.reporters + 1, reporterIds: [...base.reporterIds, memberId] };
      });
    };
    const close = () => applyToDocument(reports, key, at, () => null);

    if (typed.stream === 'post') {
      const { event } = typed;
      if (event.type === 'PostReported') await report(event.data);
      else if (event.type === 'PostReportsDismissed' || event.type === 'PostDeleted' || event.type === 'PostRejected') await close();
      else if ((event.type === 'PostEdited' || event.type === 'PostRevisionApproved') && before) {
        const subject = await subjects(store).findOne({ _id: key });
        if (subject)
          await applyToDocument(
            reports,
            key,
            at,
            (current) => current && withText(current, { excerpt: subject.excerpt, ...(subject.media ? { media: subject.media } : {}) }),
          );
      }
    } else if (typed.stream === 'topic' || typed.stream === 'reply') {
      const { event } = typed;
      if (event.type === 'TopicReported' || event.type === 'ReplyReported') await report(event.data);
      else if (
        event.type === 'TopicReportsDismissed' ||
        event.type === 'TopicRemoved' ||
        event.type === 'ReplyReportsDismissed' ||
        event.type === 'ReplyDeleted'
      )
        await close();
      else if ((event.type === 'TopicEdited' || event.type === 'ReplyEdited') && before) {
        const subject = await subjects(store).findOne({ _id: key });
        if (subject) await applyToDocument(reports, key, at, (current) => current && { ...current, excerpt: subject.excerpt });
      }
    } else {
      const { event } = typed;
      if (event.type === 'CommentReported') await report(event.data);
      else if (event.type === 'CommentReportsDismissed' || event.type === 'CommentRemoved') await close();
      else if (event.type === 'CommentEdited' && before)
        await applyToDocument(reports, key, at, (current) => current && { ...current, excerpt: excerptOf(event.data.content) });
    }

    const after = await reports.findOne({ _id: key });
    if (live && (before || after)) await tellStaff(store, notify);
  },
};
