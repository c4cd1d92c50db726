/**
 * Discussions' read models (issue 34), all owned here and kept from the events alone:
 * - `discussion_categories`: each category with its `topicCount` (topics not removed);
 * - `discussion_topics`: each topic with its opening post, tags, reply count, last reply, pinned, locked, and
 *   `lastNumber` (the number of its last reply: replies are numbered 1, 2, … in the order the log holds them);
 * - `discussion_replies`: each reply with its number, the reply it answers, and its earlier texts (`history`);
 * - `discussion_readers`: one member's place in one topic (`<topicId>:<memberId>`): the number read up to and the
 *   watch level (starting or replying watches unless they chose a level themselves);
 * - `discussion_authors`: each member's byline and when they joined, until they are erased. Topics and replies keep
 *   their author's id and role, and are named from here when read: a new name writes one document.
 * Every event is applied by reading and writing documents by their ids only (the runner keeps them in memory for a
 * page); a notice tells the members' room a topic (or a reply of it) or a category changed.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import type { Role } from '../../shared/domain';
import { htmlToText } from '../../shared/blog/excerpt';
import { bylineChange, withId, type BylineDocument } from '../../shared/members/byline';
import type { MemberEvent } from '../../shared/members/member-stream';
import type { WatchLevel } from '../../shared/discussions/constants';
import type { CategoryEvent, ReadingEvent, ReplyEvent, TopicEvent } from '../../shared/discussions/events';
import { readingStreamId } from '../../shared/discussions/reading-stream';
import { ROOMS } from '../../shared/socket-messages';

export const DISCUSSION_CATEGORIES = 'discussion_categories';
export const DISCUSSION_TOPICS = 'discussion_topics';
export const DISCUSSION_REPLIES = 'discussion_replies';
export const DISCUSSION_READERS = 'discussion_readers';
export const DISCUSSION_AUTHORS = 'discussion_authors';

/** Who wrote a topic or reply, as written: the role they wrote it in (named from `discussion_authors` when read). */
type WrittenBy = { id: string; role: Role };

export type CategoryDocument = Positioned & {
  _id: string;
  slug: string;
  name: string;
  description: string;
  color: string;
  topicCount: number;
  createdAt: string;
};

export type TopicDocument = Positioned & {
  _id: string;
  categoryId: string;
  title: string;
  content: string;
  tags: string[];
  authorId: string;
  author: WrittenBy;
  createdAt: string;
  editedAt: string | null;
  replyCount: number;
  lastNumber: number;
  lastReplyAt: string | null;
  activeAt: string;
  pinned: boolean;
  /** 1 when pinned: the list's first sort key. */
  pinRank: number;
  locked: boolean;
  removed: boolean;
  /** Lowercased title, text and tags: what the full-text search matches. */
  search: string;
  reportedBy: string[];
};

export type ReplyDocument = Positioned & {
  _id: string;
  topicId: string;
  number: number;
  replyTo: { id: string; number: number; authorId: string } | null;
  authorId: string;
  author: WrittenBy;
  content: string;
  createdAt: string;
  editedAt: string | null;
  /** Earlier texts, oldest first. */
  history: { content: string; at: string }[];
  deleted: boolean;
  via: 'web' | 'email';
  search: string;
  reportedBy: string[];
};

export type ReaderDocument = Positioned & {
  _id: string;
  topicId: string;
  memberId: string;
  /** The number of the last reply read (0: the opening post only); null: never opened. */
  readUpTo: number | null;
  level: WatchLevel;
  /** The member chose the level themselves: replying no longer changes it. */
  chosen: boolean;
};

type AuthorDocument = Positioned & BylineDocument & { joinedAt: string | null };

export const categoriesCollection = (store: DocumentStore) => store.collection<CategoryDocument>(DISCUSSION_CATEGORIES);
export const topicsCollection = (store: DocumentStore) => store.collection<TopicDocument>(DISCUSSION_TOPICS);
export const repliesCollection = (store: DocumentStore) => store.collection<ReplyDocument>(DISCUSSION_REPLIES);
export const readersCollection = (store: DocumentStore) => store.collection<ReaderDocument>(DISCUSSION_READERS);
export const authorsCollection = (store: DocumentStore) => store.collection<AuthorDocument>(DISCUSSION_AUTHORS);

const searchText = (...parts: string[]) => parts.join('\n').toLowerCase();

/** Moves a member's place in a topic: `change` gives the new one from the current (or none). */
function place(
  store: DocumentStore,
  topicId: string,
  memberId: string,
  at: number,
  change: (current: ReaderDocument | null) => Omit<ReaderDocument, '_id' | '_position' | 'topicId' | 'memberId'>,
) {
  return applyToDocument(readersCollection(store), readingStreamId(topicId, memberId), at, (current) => ({
    topicId,
    memberId,
    ...change(current),
  }));
}
/** Writing in a topic: read up to what they wrote, and watching unless they chose otherwise. */
const wrote = (store: DocumentStore, topicId: string, memberId: string, number: number, at: number) =>
  place(store, topicId, memberId, at, (current) => ({
    readUpTo: Math.max(current?.readUpTo ?? 0, number),
    level: current?.chosen ? current.level : 'watching',
    chosen: current?.chosen ?? false,
  }));

async function countIn(store: DocumentStore, categoryId: string, by: number, at: number) {
  await applyToDocument(
    categoriesCollection(store),
    categoryId,
    at,
    (current) => current && { ...current, topicCount: Math.max(0, current.topicCount + by) },
  );
}

async function applyCategory(id: string, event: CategoryEvent, at: number, store: DocumentStore) {
  const categories = categoriesCollection(store);
  switch (event.type) {
    case 'CategoryCreated': {
      const { slug, name, description, color, at: createdAt } = event.data;
      return applyToDocument(categories, id, at, () => ({ slug, name, description, color, topicCount: 0, createdAt }));
    }
    case 'CategoryChanged': {
      const { by: _by, at: _at, ...changed } = event.data;
      return applyToDocument(categories, id, at, (current) => current && { ...current, ...changed });
    }
    case 'CategoryDeleted':
      return applyToDocument(categories, id, at, () => null);
  }
}

async function applyTopic(id: string, event: TopicEvent, at: number, store: DocumentStore) {
  const topics = topicsCollection(store);
  const change = (update: (topic: TopicDocument) => Partial<TopicDocument>) =>
    applyToDocument(topics, id, at, (current) => (current ? { ...current, ...update(current) } : null));
  switch (event.type) {
    case 'TopicStarted': {
      const data = event.data;
      await applyToDocument(topics, id, at, () => ({
        categoryId: data.categoryId,
        title: data.title,
        content: data.content,
        tags: data.tags,
        authorId: data.authorId,
        author: { id: data.authorId, role: data.authorRole },
        createdAt: data.at,
        editedAt: null,
        replyCount: 0,
        lastNumber: 0,
        lastReplyAt: null,
        activeAt: data.at,
        pinned: false,
        pinRank: 0,
        locked: false,
        removed: false,
        search: searchText(data.title, htmlToText(data.content), ...data.tags),
        reportedBy: [],
      }));
      await countIn(store, data.categoryId, 1, at);
      await wrote(store, id, data.authorId, 0, at);
      return;
    }
    case 'TopicEdited': {
      const { title, content, tags, at: editedAt } = event.data;
      return change(() => ({ title, content, tags, editedAt, search: searchText(title, htmlToText(content), ...tags) }));
    }
    case 'TopicPinned':
      return change(() => ({ pinned: event.data.pinned, pinRank: event.data.pinned ? 1 : 0 }));
    case 'TopicLocked':
      return change(() => ({ locked: event.data.locked }));
    case 'TopicMoved': {
      const topic = await topics.findOne({ _id: id });
      await change(() => ({ categoryId: event.data.categoryId }));
      if (topic && !topic.removed) {
        await countIn(store, event.data.from, -1, at);
        await countIn(store, event.data.categoryId, 1, at);
      }
      return;
    }
    case 'TopicReported':
      return change((topic) => ({ reportedBy: withId(topic.reportedBy, event.data.memberId) }));
    case 'TopicReportsDismissed':
      return change(() => ({ reportedBy: [] }));
    case 'TopicRemoved': {
      const topic = await topics.findOne({ _id: id });
      await change(() => ({ removed: true, reportedBy: [] }));
      if (topic && !topic.removed) await countIn(store, topic.categoryId, -1, at);
      return;
    }
  }
}

async function applyReply(id: string, event: ReplyEvent, at: number, store: DocumentStore) {
  const replies = repliesCollection(store);
  const change = (update: (reply: ReplyDocument) => Partial<ReplyDocument>) =>
    applyToDocument(replies, id, at, (current) => (current ? { ...current, ...update(current) } : null));
  switch (event.type) {
    case 'ReplyPosted': {
      const data = event.data;
      const topics = topicsCollection(store);
      const topic = await topics.findOne({ _id: data.topicId });
      // Applied already (a replay after a crash): the reply keeps the number it was given.
      const existing = await replies.findOne({ _id: id });
      const number = existing?.number ?? (topic ? topic.lastNumber + 1 : 1);
      const quoted = data.replyTo ? await replies.findOne({ _id: data.replyTo }) : null;
      await applyToDocument(replies, id, at, () => ({
        topicId: data.topicId,
        number,
        replyTo: quoted ? { id: quoted._id, number: quoted.number, authorId: quoted.authorId } : null,
        authorId: data.authorId,
        author: { id: data.authorId, role: data.authorRole },
        content: data.content,
        createdAt: data.at,
        editedAt: null,
        history: [],
        deleted: false,
        via: data.via ?? 'web',
        search: searchText(htmlToText(data.content)),
        reportedBy: [],
      }));
      await applyToDocument(
        topics,
        data.topicId,
        at,
        (current) =>
          current && {
            ...current,
            replyCount: current.replyCount + 1,
            lastNumber: Math.max(current.lastNumber, number),
            lastReplyAt: data.at,
            activeAt: data.at,
          },
      );
      await wrote(store, data.topicId, data.authorId, number, at);
      return;
    }
    case 'ReplyEdited':
      return change((reply) => ({
        history: [...reply.history, { content: reply.content, at: reply.editedAt ?? reply.createdAt }],
        content: event.data.content,
        editedAt: event.data.at,
        search: searchText(htmlToText(event.data.content)),
      }));
    case 'ReplyDeleted': {
      const reply = await replies.findOne({ _id: id });
      await change(() => ({ content: '', history: [], deleted: true, search: '', reportedBy: [] }));
      if (reply && !reply.deleted)
        await applyToDocument(
          topicsCollection(store),
          event.data.topicId,
          at,
          (current) => current && { ...current, replyCount: Math.max(0, current.replyCount - 1) },
        );
      return;
    }
    case 'ReplyReported':
      return change((reply) => ({ reportedBy: withId(reply.reportedBy, event.data.memberId) }));
    case 'ReplyReportsDismissed':
      return change(() => ({ reportedBy: [] }));
  }
}

function applyReading(event: ReadingEvent, at: number, store: DocumentStore) {
  const { topicId, memberId } = event.data;
  if (event.type === 'TopicReadUpTo')
    return place(store, topicId, memberId, at, (current) => ({
      readUpTo: Math.max(current?.readUpTo ?? 0, event.data.number),
      level: current?.level ?? 'normal',
      chosen: current?.chosen ?? false,
    }));
  return place(store, topicId, memberId, at, (current) => ({ readUpTo: current?.readUpTo ?? null, level: event.data.level, chosen: true }));
}

/**
 * Topics and replies show their authors as they are now: their byline here, which goes when they are erased, so what
 * they wrote reads "Former member". When they chose that their content goes, it is emptied; and an erased member's
 * places in topics go (docs/domain/members.md#erasure). Erasures are rare: what they reach is found by query.
 */
async function followAuthor(memberId: string, event: MemberEvent, at: number, store: DocumentStore) {
  const change = bylineChange(event);
  if (!change) return;
  if (event.type === 'MemberErased') {
    if (event.data.content === 'removed') {
      const topics = topicsCollection(store);
      for (const { _id } of await topics.find({ authorId: memberId }, { fields: ['_id'] }))
        await applyToDocument(topics, _id, at, (topic) => topic && { ...topic, title: 'Removed topic', content: '', tags: [], search: '' });
      const replies = repliesCollection(store);
      for (const { _id } of await replies.find({ authorId: memberId }, { fields: ['_id'] }))
        await applyToDocument(replies, _id, at, (reply) => reply && { ...reply, content: '', history: [], deleted: true, search: '' });
    }
    for (const { _id } of await readersCollection(store).find({ memberId }, { fields: ['_id'] }))
      await applyToDocument(readersCollection(store), _id, at, () => null);
  }
  await applyToDocument(authorsCollection(store), memberId, at, (current) => {
    const byline = change(current?.byline ?? null);
    return byline && { byline, joinedAt: event.type === 'MemberRegistered' ? event.data.registeredAt : (current?.joinedAt ?? null) };
  });
}

const KIND = { created: 'created', updated: 'updated', removed: 'removed' } as const;

export const discussionsProjection: Projection = {
  name: 'discussions',
  // 2: named when read (a rename rewrote every topic and reply of its member); found by author, oldest first.
  version: 2,
  collections: [DISCUSSION_CATEGORIES, DISCUSSION_TOPICS, DISCUSSION_REPLIES, DISCUSSION_READERS, DISCUSSION_AUTHORS],
  async setup(store) {
    const topics = topicsCollection(store);
    await topics.createIndex({ removed: 1, pinRank: -1, activeAt: -1, _id: -1 });
    // The unread count's window: the most recently active topics.
    await topics.createIndex({ removed: 1, activeAt: -1, _id: -1 });
    await topics.createIndex({ categoryId: 1, removed: 1, pinRank: -1, activeAt: -1, _id: -1 });
    await topics.createIndex({ search: 'text' }, { name: 'discussion_topics_search' });
    await topics.createIndex({ authorId: 1, createdAt: 1, _id: 1 });
    await repliesCollection(store).createIndex({ topicId: 1, number: 1, _id: 1 });
    await repliesCollection(store).createIndex({ authorId: 1, createdAt: 1, _id: 1 });
    await repliesCollection(store).createIndex({ search: 'text' }, { name: 'discussion_replies_search' });
    await readersCollection(store).createIndex({ memberId: 1 });
  },
  async apply(recorded, context: ProjectionContext) {
    const { store, notify, live } = context;
    const typed = typedEvent(recorded);
    const at = recorded.position;
    if (!typed) return;
    switch (typed.stream) {
      case 'member':
        return followAuthor(typed.id, typed.event, at, store);
      case 'category': {
        await applyCategory(typed.id, typed.event, at, store);
        const kind =
          typed.event.type === 'CategoryCreated' ? KIND.created : typed.event.type === 'CategoryDeleted' ? KIND.removed : KIND.updated;
        if (live) notify({ message: 'categories:changed', rooms: [ROOMS.members], payload: { id: typed.id, kind } });
        return;
      }
      case 'topic': {
        await applyTopic(typed.id, typed.event, at, store);
        const { type } = typed.event;
        // A report changes nothing a reader sees.
        if (live && type !== 'TopicReported' && type !== 'TopicReportsDismissed') {
          const kind = type === 'TopicStarted' ? KIND.created : type === 'TopicRemoved' ? KIND.removed : KIND.updated;
          notify({ message: 'topics:changed', rooms: [ROOMS.members], payload: { id: typed.id, kind } });
          const event = typed.event;
          // Its category's topic count changed.
          if (event.type === 'TopicStarted' || event.type === 'TopicMoved' || event.type === 'TopicRemoved')
            notify({ message: 'categories:changed', rooms: [ROOMS.members], payload: { id: event.data.categoryId, kind: KIND.updated } });
        }
        return;
      }
      case 'reply': {
        await applyReply(typed.id, typed.event, at, store);
        const { type, data } = typed.event;
        if (live && type !== 'ReplyReported' && type !== 'ReplyReportsDismissed') {
          const kind = type === 'ReplyPosted' ? KIND.created : type === 'ReplyDeleted' ? KIND.removed : KIND.updated;
          notify({ message: 'replies:changed', rooms: [ROOMS.members], payload: { topicId: data.topicId, id: typed.id, kind } });
        }
        return;
      }
      case 'reading': {
        await applyReading(typed.event, at, store);
        const { topicId, memberId } = typed.event.data;
        // The reader's other tabs: the topic's unread count and the sidebar's.
        if (live) notify({ message: 'topics:changed', rooms: [ROOMS.member(memberId)], payload: { id: topicId, kind: KIND.updated } });
        return;
      }
      default:
        return;
    }
  },
};
