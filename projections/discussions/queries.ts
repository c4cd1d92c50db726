/** Discussions' queries: the API's categories, topic list, topic page, replies, edit history and unread counts. */
import type { DocumentStore, Filter, Sort } from '../../platform/document-store/port';
import { afterCursor, findPage, pageOf, type Page, type PageRequest } from '../../platform/paging';
import { UNREAD_WINDOW } from '../../shared/discussions/constants';
import { readingStreamId } from '../../shared/discussions/reading-stream';
import { hasUnread, unreadReplies } from '../../shared/discussions/rules';
import type { Category, Reply, ReplyRevision, Topic, TopicSummary } from '../../shared/discussions/schemas';
import { normalizeTag } from '../../shared/feed/tags';
import { bylineName, bylinesOf, shownAuthor, type Byline } from '../../shared/members/byline';
import {
  authorsCollection,
  categoriesCollection,
  readersCollection,
  repliesCollection,
  topicsCollection,
  type CategoryDocument,
  type ReaderDocument,
  type ReplyDocument,
  type TopicDocument,
} from './discussions';

/** Pinned first, then the most recently active; the id makes the order total. */
export const TOPIC_ORDER: Sort = { pinRank: -1, activeAt: -1, _id: -1 };
/** A topic's replies: in the order they were posted. */
export const REPLY_ORDER: Sort = { number: 1, _id: 1 };
/** How many topics a search may match in titles and in replies before it is cut (a search narrows; it does not list). */
const SEARCH_MATCHES = 500;

export const categoryDto = ({ _id, slug, name, description, color, topicCount }: CategoryDocument): Category => ({
  id: _id,
  slug,
  name,
  description,
  color,
  topicCount,
});

/** Every category, by name: a community has a handful. */
export const allCategories = (store: DocumentStore) => categoriesCollection(store).find({}, { sort: { name: 1, _id: 1 } });
export const findCategory = (store: DocumentStore, id: string) => categoriesCollection(store).findOne({ _id: id });
export const categoryBySlug = (store: DocumentStore, slug: string) => categoriesCollection(store).findOne({ slug });

/** When a member joined (what "new to them" counts from); null for a member the read model does not know. */
const joinedAt = async (store: DocumentStore, memberId: string) =>
  (await authorsCollection(store).findOne({ _id: memberId }))?.joinedAt ?? null;

/** A topic as a member sees it, or null (unknown or removed). */
export async function visibleTopic(store: DocumentStore, id: string): Promise<TopicDocument | null> {
  const topic = await topicsCollection(store).findOne({ _id: id });
  return topic && !topic.removed ? topic : null;
}
export const findReply = (store: DocumentStore, id: string) => repliesCollection(store).findOne({ _id: id });
export const readerOf = (store: DocumentStore, topicId: string, memberId: string) =>
  readersCollection(store).findOne({ _id: readingStreamId(topicId, memberId) });

type Categories = Map<string, CategoryDocument>;
/** The authors of what is answered, named as they are now. */
type Bylines = ReadonlyMap<string, Byline | null>;
const categoryRef = (categories: Categories, id: string) => {
  const category = categories.get(id);
  return { id, slug: category?.slug ?? '', name: category?.name ?? 'Uncategorised', color: category?.color ?? '#5b6b7a' };
};

function summaryDto(
  topic: TopicDocument,
  categories: Categories,
  bylines: Bylines,
  reader: ReaderDocument | null,
  joined: string | null,
): TopicSummary {
  const readUpTo = reader?.readUpTo ?? null;
  return {
    id: topic._id,
    title: topic.title,
    category: categoryRef(categories, topic.categoryId),
    author: shownAuthor(topic.author, bylines),
    tags: topic.tags,
    replyCount: topic.replyCount,
    lastReplyAt: topic.lastReplyAt,
    activeAt: topic.activeAt,
    createdAt: topic.createdAt,
    pinned: topic.pinned,
    locked: topic.locked,
    unread: unreadReplies(topic, readUpTo, joined),
    new: readUpTo === null && hasUnread(topic, null, joined),
    watch: reader?.level ?? 'normal',
  };
}

export interface TopicListQuery extends PageRequest {
  category?: string | undefined;
  tag?: string | undefined;
  q?: string | undefined;
}

/** The topics whose title, opening post or tags, or one of whose replies, hold every word searched. */
async function searched(store: DocumentStore, q: string): Promise<string[]> {
  const [inTopics, inReplies] = await Promise.all([
    topicsCollection(store).find({ $text: { $search: q } }, { fields: ['_id'], limit: SEARCH_MATCHES }),
    repliesCollection(store).find({ $text: { $search: q } }, { fields: ['topicId'], limit: SEARCH_MATCHES }),
  ]);
  return [...new Set([...inTopics.map((topic) => topic._id), ...inReplies.map((reply) => reply.topicId)])];
}

/** One page of the topic list as a member sees it; `category` is a category's id or slug. */
export async function topicList(store: DocumentStore, query: TopicListQuery, memberId: string): Promise<Page<TopicSummary>> {
  const categories = new Map((await allCategories(store)).map((category) => [category._id, category]));
  const conditions: Filter[] = [{ removed: false }];
  if (query.category) {
    const category = [...categories.values()].find((one) => one._id === query.category!.toLowerCase() || one.slug === query.category);
    conditions.push({ categoryId: category?._id ?? query.category });
  }
  if (query.tag) conditions.push({ tags: normalizeTag(query.tag) });
  if (query.q) conditions.push({ _id: { $in: await searched(store, query.q) } });
  if (query.cursor) conditions.push(afterCursor(query.cursor, TOPIC_ORDER));
  const found = await topicsCollection(store).find({ $and: conditions }, { sort: TOPIC_ORDER, limit: query.limit + 1 });
  const page = pageOf(found, query, TOPIC_ORDER);
  const [readers, joined, bylines] = await Promise.all([
    page.items.length
      ? readersCollection(store).find({ _id: { $in: page.items.map((topic) => readingStreamId(topic._id, memberId)) } })
      : Promise.resolve([]),
    joinedAt(store, memberId),
    bylinesOf(
      authorsCollection(store),
      page.items.map((topic) => topic.authorId),
    ),
  ]);
  const byTopic = new Map(readers.map((reader) => [reader.topicId, reader]));
  return {
    items: page.items.map((topic) => summaryDto(topic, categories, bylines, byTopic.get(topic._id) ?? null, joined)),
    nextCursor: page.nextCursor,
  };
}

/** A topic with my place in it. */
export async function topicDto(store: DocumentStore, topic: TopicDocument, memberId: string): Promise<Topic> {
  const [category, reader, joined, bylines] = await Promise.all([
    findCategory(store, topic.categoryId),
    readerOf(store, topic._id, memberId),
    joinedAt(store, memberId),
    bylinesOf(authorsCollection(store), [topic.authorId]),
  ]);
  const categories: Categories = new Map(category ? [[category._id, category]] : []);
  return {
    ...summaryDto(topic, categories, bylines, reader, joined),
    content: topic.content,
    editedAt: topic.editedAt,
    readUpTo: reader?.readUpTo ?? null,
  };
}

/** Replies as the API answers them, their authors and the authors of the replies they answer named as they are now. */
export async function replyDtos(store: DocumentStore, replies: ReplyDocument[]): Promise<Reply[]> {
  const bylines = await bylinesOf(
    authorsCollection(store),
    replies.flatMap((reply) => [reply.authorId, ...(reply.replyTo ? [reply.replyTo.authorId] : [])]),
  );
  return replies.map((reply) => ({
    id: reply._id,
    topicId: reply.topicId,
    number: reply.number,
    replyTo: reply.replyTo && {
      id: reply.replyTo.id,
      number: reply.replyTo.number,
      author: { id: reply.replyTo.authorId, name: bylineName(bylines.get(reply.replyTo.authorId) ?? null) },
    },
    author: shownAuthor(reply.author, bylines),
    content: reply.content,
    createdAt: reply.createdAt,
    editedAt: reply.editedAt,
    edits: reply.history.length,
    deleted: reply.deleted,
    via: reply.via,
  }));
}

export async function replyDto(store: DocumentStore, reply: ReplyDocument): Promise<Reply> {
  const [dto] = await replyDtos(store, [reply]);
  return dto!;
}

/** A topic's replies, oldest first, a page at a time. */
export async function replyPage(store: DocumentStore, topicId: string, page: PageRequest): Promise<Page<Reply>> {
  const found = await findPage(repliesCollection(store), { topicId }, REPLY_ORDER, page);
  return { items: await replyDtos(store, found.items), nextCursor: found.nextCursor };
}

/** A reply's texts, newest first: the one it shows, then the earlier ones. */
export const replyRevisions = (reply: ReplyDocument): ReplyRevision[] => [
  ...(reply.deleted ? [] : [{ content: reply.content, at: reply.editedAt ?? reply.createdAt, current: true }]),
  ...reply.history.map(({ content, at }) => ({ content, at, current: false })).reverse(),
];

/**
 * How many topics have something unread for a member: among the UNREAD_WINDOW most recently active ones (so the cost
 * stays flat as history grows), those with replies past their place, or begun since they joined and never opened;
 * muted ones never count.
 */
export async function unreadTopicCount(store: DocumentStore, memberId: string): Promise<number> {
  const [recent, joined] = await Promise.all([
    topicsCollection(store).find(
      { removed: false },
      { sort: { activeAt: -1, _id: -1 }, limit: UNREAD_WINDOW, fields: ['lastNumber', 'createdAt'] },
    ),
    joinedAt(store, memberId),
  ]);
  if (recent.length === 0) return 0;
  const readers = await readersCollection(store).find({ _id: { $in: recent.map((topic) => readingStreamId(topic._id, memberId)) } });
  const byTopic = new Map(readers.map((reader) => [reader.topicId, reader]));
  return recent.filter((topic) => {
    const reader = byTopic.get(topic._id);
    return reader?.level !== 'muted' && hasUnread(topic, reader?.readUpTo ?? null, joined);
  }).length;
}
