/**
 * Mail to the watchers of a discussion topic, applied by the mail runner (so a rebuild of the read models never mails
 * anyone again), in the durable outbox the other mail uses (docs/domain/discussions-mail.md#mail-to-watchers).
 *
 * Who watches is decided from the discussion events alone, in this runner's own models (the discussions projection's
 * collections belong to it): starting a topic or replying to it watches it, unless the member chose a level for the
 * topic themselves (TopicWatchChanged), which then stays; `muted` and `normal` get no mail. Each new reply goes to every
 * watcher but its author as their subscriptions go (discussionFrequency): at once, as an outbox entry
 * `reply:<memberId>:<replyId>` (so a replay writes none twice), or kept for their daily or weekly digest
 * (`mail_digest_replies`, collected by workers/subscriptions/digests.ts).
 *
 * Models: `mail_topics` (title, removed, each member's level), `mail_replies` (what the mail shows),
 * `mail_discussion_people` (each member's address and name, following address changes) and `mail_digest_replies`.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { forgetReplyTokens, setupReplyTokens } from '../../platform/mail/reply-tokens';
import type { WatchLevel } from '../../shared/discussions/constants';
import { insertNewEntries, mailOutbox, newOutboxEntry, setupOutbox, type OutboxEntry } from '../subscriptions/outbox';
import { HISTORY_AGE_MS } from '../subscriptions/reactor';
import { mailRecipients, type MailRecipient } from '../subscriptions/recipients';
import type { Frequency } from '../../shared/subscriptions/constants';

export const MAIL_TOPICS = 'mail_topics';
export const MAIL_REPLIES = 'mail_replies';
export const MAIL_DISCUSSION_PEOPLE = 'mail_discussion_people';
export const MAIL_DIGEST_REPLIES = 'mail_digest_replies';

export type MailTopic = Positioned & {
  _id: string;
  title: string;
  removed: boolean;
  /** Each member's level in the topic, by member id; absent: normal. */
  levels: Record<string, WatchLevel>;
  /** Members who chose their level themselves: starting or replying no longer changes it. */
  chosen: string[];
};

export type MailReply = Positioned & {
  _id: string;
  topicId: string;
  authorId: string;
  /** Sanitised HTML, as posted or last edited. */
  content: string;
  at: string;
  deleted: boolean;
};

export type MailDiscussionPerson = Positioned & { _id: string; email: string; firstName: string; lastName: string };

/** A reply waiting for a watcher's digest: `<memberId>:<replyId>`, at the reply's position in the log. */
export type MailDigestReply = {
  _id: string;
  memberId: string;
  replyId: string;
  topicId: string;
  frequency: Exclude<Frequency, 'immediate'>;
  position: number;
};

export const mailDigestReplies = (store: DocumentStore) => store.collection<MailDigestReply>(MAIL_DIGEST_REPLIES);
export const mailTopics = (store: DocumentStore) => store.collection<MailTopic>(MAIL_TOPICS);
export const mailReplies = (store: DocumentStore) => store.collection<MailReply>(MAIL_REPLIES);
export const mailDiscussionPeople = (store: DocumentStore) => store.collection<MailDiscussionPerson>(MAIL_DISCUSSION_PEOPLE);

const fields = <T extends Positioned & { _id: string }>({ _id, _position, ...rest }: T) => rest;

/** The topic after `memberId` started it or replied: watching, unless they chose a level themselves. */
function watchedBy(topic: MailTopic, memberId: string) {
  if (topic.chosen.includes(memberId)) return fields(topic);
  return { ...fields(topic), levels: { ...topic.levels, [memberId]: 'watching' as const } };
}

/** Whom a reply is mailed to: the topic's watchers but its author. */
export function watchersToMail(topic: Pick<MailTopic, 'levels' | 'removed'>, authorId: string): string[] {
  if (topic.removed) return [];
  return Object.entries(topic.levels)
    .filter(([memberId, level]) => level === 'watching' && memberId !== authorId)
    .map(([memberId]) => memberId)
    .sort();
}

/**
 * How a watcher gets replies: as their own subscriptions' mail comes, the most frequent of their deliverable
 * subscriptions (a member who reads everything in a daily digest gets topics there too); at once when they have an
 * immediate one or none at all (watching a topic is itself asking for its replies).
 */
export function discussionFrequency(subscriptions: readonly Pick<MailRecipient, 'frequency'>[]): Frequency {
  if (subscriptions.length === 0 || subscriptions.some((one) => one.frequency === 'immediate')) return 'immediate';
  return subscriptions.some((one) => one.frequency === 'daily') ? 'daily' : 'weekly';
}

export interface WatcherMailOptions {
  /** Hands new outbox entries to the queue; may reject (Redis down): the sweeper enqueues them later. */
  enqueue(outboxIds: string[]): Promise<void>;
  onEnqueueError(error: unknown): void;
  now(): Date;
}

export function createWatcherMail({ enqueue, onEnqueueError, now }: WatcherMailOptions): Projection {
  return {
    name: 'watcher-mail',
    version: 1,
    collections: [MAIL_TOPICS, MAIL_REPLIES, MAIL_DISCUSSION_PEOPLE, MAIL_DIGEST_REPLIES],
    async setup(store) {
      await setupOutbox(store);
      await setupReplyTokens(store);
      await mailReplies(store).createIndex({ authorId: 1 });
      await mailDigestReplies(store).createIndex({ frequency: 1, position: 1 });
    },
    async apply(recorded, { store }) {
      const typed = typedEvent(recorded);
      const at = recorded.position;
      if (typed?.stream === 'member') {
        const { event } = typed;
        const people = mailDiscussionPeople(store);
        switch (event.type) {
          case 'MemberRegistered':
            return applyToDocument(people, typed.id, at, () => ({
              email: event.data.email,
              firstName: event.data.firstName,
              lastName: event.data.lastName,
            }));
          case 'MemberEmailChanged':
            return applyToDocument(people, typed.id, at, (current) => current && { ...fields(current), email: event.data.email });
          case 'MemberProfileChanged':
            return applyToDocument(
              people,
              typed.id,
              at,
              (current) =>
                current && {
                  ...fields(current),
                  firstName: event.data.firstName ?? current.firstName,
                  lastName: event.data.lastName ?? current.lastName,
                },
            );
          case 'MemberErased': {
            await applyToDocument(people, typed.id, at, () => null);
            await mailDigestReplies(store).deleteMany({ memberId: typed.id });
            await forgetReplyTokens(store, typed.id);
            if (event.data.content === 'removed')
              for (const reply of await mailReplies(store).find({ authorId: typed.id }))
                await applyToDocument(mailReplies(store), reply._id, at, () => null);
            return;
          }
          default:
            return;
        }
      }
      if (typed?.stream === 'topic') {
        const { event } = typed;
        const topics = mailTopics(store);
        switch (event.type) {
          case 'TopicStarted':
            return applyToDocument(topics, typed.id, at, () =>
              watchedBy(
                { _id: typed.id, _position: 0, title: event.data.title, removed: false, levels: {}, chosen: [] },
                event.data.authorId,
              ),
            );
          case 'TopicEdited':
            return applyToDocument(topics, typed.id, at, (current) => current && { ...fields(current), title: event.data.title });
          case 'TopicRemoved':
            return applyToDocument(topics, typed.id, at, (current) => current && { ...fields(current), removed: true });
          default:
            return;
        }
      }
      if (typed?.stream === 'reading') {
        const { event } = typed;
        if (event.type !== 'TopicWatchChanged') return;
        const { topicId, memberId, level } = event.data;
        return applyToDocument(
          mailTopics(store),
          topicId,
          at,
          (current) =>
            current && {
              ...fields(current),
              levels: { ...current.levels, [memberId]: level },
              chosen: current.chosen.includes(memberId) ? current.chosen : [...current.chosen, memberId],
            },
        );
      }
      if (typed?.stream !== 'reply') return;
      const { event } = typed;
      const replies = mailReplies(store);
      switch (event.type) {
        case 'ReplyPosted': {
          const { topicId, authorId, content } = event.data;
          const topic = await mailTopics(store).findOne({ _id: topicId });
          let inserted: string[] = [];
          const when = now();
          // Entries first, then the models: a crash between replays the event and finds the entries written.
          if (topic && topic._position < at && when.getTime() - recorded.createdAt.getTime() <= HISTORY_AGE_MS) {
            const watchers = watchersToMail(topic, authorId);
            const subscriptions =
              watchers.length === 0 ? [] : await mailRecipients(store).find({ memberId: { $in: watchers }, deliverable: true });
            const entries: OutboxEntry[] = [];
            for (const memberId of watchers) {
              const frequency = discussionFrequency(subscriptions.filter((one) => one.memberId === memberId));
              if (frequency === 'immediate')
                entries.push(newOutboxEntry(memberId, { kind: 'reply', topicId, replyId: typed.id, memberId }, when));
              else {
                const _id = `${memberId}:${typed.id}`;
                const waiting = { _id, memberId, replyId: typed.id, topicId, frequency, position: at };
                await mailDigestReplies(store).replaceOne({ _id }, waiting, { upsert: true });
              }
            }
            inserted = await insertNewEntries(mailOutbox(store), entries);
          }
          await applyToDocument(replies, typed.id, at, () => ({ topicId, authorId, content, at: event.data.at, deleted: false }));
          if (topic) await applyToDocument(mailTopics(store), topicId, at, (current) => current && watchedBy(current, authorId));
          // Handed to the queue once the models hold the reply, so the mail shows it.
          if (inserted.length > 0) enqueue(inserted).catch(onEnqueueError);
          return;
        }
        case 'ReplyEdited':
          return applyToDocument(replies, typed.id, at, (current) => current && { ...fields(current), content: event.data.content });
        case 'ReplyDeleted':
          return applyToDocument(replies, typed.id, at, (current) => current && { ...fields(current), content: '', deleted: true });
        default:
          return;
      }
    },
  };
}
