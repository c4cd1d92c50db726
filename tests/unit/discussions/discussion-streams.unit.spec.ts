/** The discussions' deciders and rules, given / when / then (shared/discussions). */
import { describe, expect, it } from 'vitest';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { categoryDecider, type CategoryEvent } from '../../../shared/discussions/category-stream';
import { topicDecider, type TopicEvent } from '../../../shared/discussions/topic-stream';
import { replyDecider, type ReplyCommand, type ReplyEvent } from '../../../shared/discussions/reply-stream';
import { readingDecider, type ReadingEvent } from '../../../shared/discussions/reading-stream';
import { categorySlug, hasUnread, unreadReplies } from '../../../shared/discussions/rules';
import { deciderSpec } from '../../support/decider-spec';

const now = new Date('2026-11-26T10:00:00.000Z');
const at = now.toISOString();
const author: Actor = { id: 'member-1', role: 'member' };
const other: Actor = { id: 'member-2', role: 'member' };
const staff: Actor = { id: 'staff-1', role: 'staff' };
const subscriber: Actor = { id: 'sub-1', role: 'subscriber' };
const by = (actor: Actor | null): CommandMetadata => ({ now, actor });

describe('categories', () => {
  const spec = deciderSpec(categoryDecider);
  const fields = { name: 'Equipment', slug: 'equipment', description: '', color: '#123456' };
  const created: CategoryEvent = { type: 'CategoryCreated', data: { id: 'c-1', ...fields, by: staff.id, at } };

  it('are created by staff only', () => {
    spec
      .given([])
      .when({ type: 'CreateCategory', data: { id: 'c-1', ...fields }, metadata: by(staff) })
      .then([created]);
    spec
      .given([])
      .when({ type: 'CreateCategory', data: { id: 'c-1', ...fields }, metadata: by(author) })
      .thenThrows('forbidden');
  });

  it('change only what differs, and a change to nothing is a no-op', () => {
    spec
      .given([created])
      .when({ type: 'ChangeCategory', data: { name: 'Equipment', color: '#654321' }, metadata: by(staff) })
      .then([{ type: 'CategoryChanged', data: { color: '#654321', by: staff.id, at } }]);
    spec
      .given([created])
      .when({ type: 'ChangeCategory', data: { name: 'Equipment' }, metadata: by(staff) })
      .then([]);
  });

  it('cannot be deleted while they hold topics (409), and can once empty', () => {
    spec
      .given([created])
      .when({ type: 'DeleteCategory', data: { topicCount: 2 }, metadata: by(staff) })
      .thenThrows('conflict', 'This category still holds 2 topics: move them first');
    spec
      .given([created])
      .when({ type: 'DeleteCategory', data: { topicCount: 0 }, metadata: by(staff) })
      .then([{ type: 'CategoryDeleted', data: { by: staff.id, at } }]);
  });

  it('take their address from their name', () => {
    expect(categorySlug('Stations and People')).toBe('stations-and-people');
    expect(categorySlug('  Émissions & Réseaux! ')).toBe('emissions-reseaux');
    expect(categorySlug('!!!')).toBe('category');
  });
});

describe('topics', () => {
  const spec = deciderSpec(topicDecider);
  const text = { title: 'Who remembers the KRNT night crew?', content: '<p>Tell us</p>', tags: ['krnt'] };
  const started: TopicEvent = {
    type: 'TopicStarted',
    data: { id: 't-1', categoryId: 'c-1', ...text, authorId: author.id, authorRole: 'member', at },
  };

  it('are started by members and staff, not by subscribers', () => {
    spec
      .given([])
      .when({ type: 'StartTopic', data: { id: 't-1', categoryId: 'c-1', ...text }, metadata: by(author) })
      .then([started]);
    spec
      .given([])
      .when({ type: 'StartTopic', data: { id: 't-1', categoryId: 'c-1', ...text }, metadata: by(subscriber) })
      .thenThrows('forbidden', 'Subscribers can read discussions but not write in them');
  });

  it('are pinned, locked and moved by staff, one event per change, none for what already holds', () => {
    spec
      .given([started])
      .when({ type: 'ModerateTopic', data: { pinned: true, locked: true, categoryId: 'c-2' }, metadata: by(staff) })
      .then([
        { type: 'TopicPinned', data: { pinned: true, by: staff.id, at } },
        { type: 'TopicLocked', data: { locked: true, by: staff.id, at } },
        { type: 'TopicMoved', data: { from: 'c-1', categoryId: 'c-2', by: staff.id, at } },
      ]);
    spec
      .given([started])
      .when({ type: 'ModerateTopic', data: { pinned: false, categoryId: 'c-1' }, metadata: by(staff) })
      .then([]);
    spec
      .given([started])
      .when({ type: 'ModerateTopic', data: { pinned: true }, metadata: by(author) })
      .thenThrows('forbidden');
  });

  it('are edited by their author only, and reported once per member, never by their author', () => {
    spec
      .given([started])
      .when({ type: 'EditTopic', data: { title: 'Another' }, metadata: by(other) })
      .thenThrows('forbidden');
    spec
      .given([started])
      .when({ type: 'EditTopic', data: { title: 'The KRNT night crew' }, metadata: by(author) })
      .then([{ type: 'TopicEdited', data: { ...text, title: 'The KRNT night crew', by: author.id, at } }]);
    spec
      .given([started])
      .when({ type: 'ReportTopic', data: {}, metadata: by(author) })
      .thenThrows('rule');
    const reported: TopicEvent = { type: 'TopicReported', data: { memberId: other.id, at } };
    spec
      .given([started])
      .when({ type: 'ReportTopic', data: {}, metadata: by(other) })
      .then([reported]);
    spec
      .given([started, reported])
      .when({ type: 'ReportTopic', data: {}, metadata: by(other) })
      .then([]);
  });
});

describe('replies', () => {
  const spec = deciderSpec(replyDecider);
  const post = (actor: Actor, locked = false, replyTo: { id: string; topicId: string; deleted: boolean } | null = null): ReplyCommand => ({
    type: 'PostReply',
    data: { id: 'r-2', topic: { id: 't-1', locked }, replyTo, content: '<p>Yes</p>' },
    metadata: by(actor),
  });
  const posted: ReplyEvent = {
    type: 'ReplyPosted',
    data: { id: 'r-1', topicId: 't-1', replyTo: null, authorId: author.id, authorRole: 'member', content: '<p>First</p>', at },
  };

  it('are posted in an open topic, quoting a reply of the same topic', () => {
    spec
      .given([])
      .when(post(other, false, { id: 'r-1', topicId: 't-1', deleted: false }))
      .then([
        {
          type: 'ReplyPosted',
          data: { id: 'r-2', topicId: 't-1', replyTo: 'r-1', authorId: other.id, authorRole: 'member', content: '<p>Yes</p>', at },
        },
      ]);
    spec
      .given([])
      .when(post(other, false, { id: 'r-9', topicId: 't-2', deleted: false }))
      .thenThrows('rule', 'That reply belongs to another topic');
  });

  it('are refused by a locked topic (409) and to subscribers (403)', () => {
    spec.given([]).when(post(other, true)).thenThrows('conflict', 'This topic is locked: it takes no more replies');
    spec.given([]).when(post(subscriber)).thenThrows('forbidden');
  });

  it('are edited by their author only; an unchanged text is a no-op', () => {
    spec
      .given([posted])
      .when({ type: 'EditReply', data: { content: '<p>Edited</p>' }, metadata: by(author) })
      .then([{ type: 'ReplyEdited', data: { topicId: 't-1', content: '<p>Edited</p>', at } }]);
    spec
      .given([posted])
      .when({ type: 'EditReply', data: { content: '<p>First</p>' }, metadata: by(author) })
      .then([]);
    spec
      .given([posted])
      .when({ type: 'EditReply', data: { content: '<p>Mine now</p>' }, metadata: by(staff) })
      .thenThrows('forbidden');
  });

  it('are deleted by their author or staff, once', () => {
    const deleted: ReplyEvent = { type: 'ReplyDeleted', data: { topicId: 't-1', by: staff.id, at } };
    spec
      .given([posted])
      .when({ type: 'DeleteReply', data: {}, metadata: by(other) })
      .thenThrows('forbidden');
    spec
      .given([posted])
      .when({ type: 'DeleteReply', data: {}, metadata: by(staff) })
      .then([deleted]);
    spec
      .given([posted, deleted])
      .when({ type: 'DeleteReply', data: {}, metadata: by(author) })
      .then([]);
    spec
      .given([posted, deleted])
      .when({ type: 'EditReply', data: { content: '<p>Back</p>' }, metadata: by(author) })
      .thenThrows('rule');
  });
});

describe('a member’s place in a topic', () => {
  const spec = deciderSpec(readingDecider);
  const read: ReadingEvent = { type: 'TopicReadUpTo', data: { topicId: 't-1', memberId: author.id, replyId: 'r-3', number: 3, at } };

  it('moves forward only, and is kept by its member alone', () => {
    const upTo = (number: number, actor = author) =>
      ({
        type: 'ReadTopicUpTo',
        data: { topicId: 't-1', memberId: author.id, replyId: `r-${number}`, number },
        metadata: by(actor),
      }) as const;
    spec.given([]).when(upTo(3)).then([read]);
    spec.given([read]).when(upTo(2)).then([]);
    spec.given([read]).when(upTo(3, other)).thenThrows('forbidden');
  });

  it('watch levels change only when they differ', () => {
    const watch = { type: 'WatchTopic', data: { topicId: 't-1', memberId: author.id, level: 'muted' }, metadata: by(author) } as const;
    const muted: ReadingEvent = { type: 'TopicWatchChanged', data: { topicId: 't-1', memberId: author.id, level: 'muted', at } };
    spec.given([]).when(watch).then([muted]);
    spec.given([muted]).when(watch).then([]);
  });

  it('unread: replies past my place; a topic never opened counts whole only when it began after I joined', () => {
    const topic = { lastNumber: 7, createdAt: '2026-11-20T00:00:00.000Z' };
    expect(unreadReplies(topic, 5, '2026-01-01T00:00:00.000Z')).toBe(2);
    expect(unreadReplies(topic, null, '2026-01-01T00:00:00.000Z')).toBe(7);
    expect(unreadReplies(topic, null, '2026-11-25T00:00:00.000Z')).toBe(0);
    expect(hasUnread({ ...topic, lastNumber: 0 }, null, '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(hasUnread(topic, 7, '2026-01-01T00:00:00.000Z')).toBe(false);
    expect(hasUnread(topic, null, null)).toBe(false);
  });
});
