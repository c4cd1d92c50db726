import { describe, it } from 'vitest';
import type { Actor, CommandMetadata } from '../../../shared/domain';
import { type CommentCommand, type CommentEvent, type ParentComment, commentDecider } from '../../../shared/comments/comment-stream';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(commentDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const at = now.toISOString();
const target = { targetType: 'post' as const, targetId: 'post-1' };
const author: Actor = { id: 'member-1', role: 'member' };
const other: Actor = { id: 'member-2', role: 'member' };
const subscriber: Actor = { id: 'sub-1', role: 'subscriber' };
const staff: Actor = { id: 'staff-1', role: 'staff' };
const by = (actor: Actor | null): CommandMetadata => ({ now, actor });

const write = (actor: Actor | null, parent: ParentComment | null = null): CommentCommand => ({
  type: 'WriteComment',
  data: { id: 'c-2', ...target, content: 'Hello', parent },
  metadata: by(actor),
});
const written: CommentEvent = {
  type: 'CommentWritten',
  data: { id: 'c-1', ...target, parentId: null, authorId: author.id, authorRole: 'member', content: 'First', at },
};
const removed: CommentEvent = { type: 'CommentRemoved', data: { ...target, by: staff.id, at } };
const topLevel: ParentComment = { id: 'c-1', ...target, parentId: null, removed: false };

describe('writing a comment', () => {
  it('is open to members, staff and admins, and records the target and the reply', () => {
    spec
      .given([])
      .when(write(author))
      .then([
        {
          type: 'CommentWritten',
          data: { id: 'c-2', ...target, parentId: null, authorId: author.id, authorRole: 'member', content: 'Hello', at },
        },
      ]);
    spec
      .given([])
      .when(write(staff, topLevel))
      .then([
        {
          type: 'CommentWritten',
          data: { id: 'c-2', ...target, parentId: 'c-1', authorId: staff.id, authorRole: 'staff', content: 'Hello', at },
        },
      ]);
  });
  it('is refused to subscribers and to nobody', () => {
    spec.given([]).when(write(subscriber)).thenThrows('forbidden', 'Subscribers can read comments but not write them');
    spec.given([]).when(write(null)).thenThrows('unauthenticated');
  });
  it('replies one level deep, in the same thread, never to a removed comment', () => {
    spec
      .given([])
      .when(write(author, { ...topLevel, parentId: 'c-0' }))
      .thenThrows('rule', 'Replies go one level deep: reply to the comment above it');
    spec
      .given([])
      .when(write(author, { ...topLevel, targetId: 'post-2' }))
      .thenThrows('rule', 'That comment belongs to another thread');
    spec
      .given([])
      .when(write(author, { ...topLevel, targetType: 'blog' }))
      .thenThrows('rule', 'That comment belongs to another thread');
    spec
      .given([])
      .when(write(author, { ...topLevel, removed: true }))
      .thenThrows('rule', 'You cannot reply to a removed comment');
  });
  it('happens once per id', () => {
    spec.given([written]).when(write(author)).thenThrows('conflict');
  });
});

describe('a written comment', () => {
  const edit = (actor: Actor, content = 'Second thoughts'): CommentCommand => ({
    type: 'EditComment',
    data: { content },
    metadata: by(actor),
  });
  const remove = (actor: Actor): CommentCommand => ({ type: 'RemoveComment', data: {}, metadata: by(actor) });
  const report = (actor: Actor): CommentCommand => ({ type: 'ReportComment', data: { reason: 'Rude' }, metadata: by(actor) });

  it('is edited by its author only, and an unchanged text changes nothing', () => {
    spec
      .given([written])
      .when(edit(author))
      .then([{ type: 'CommentEdited', data: { ...target, content: 'Second thoughts', at } }]);
    spec.given([written]).when(edit(author, 'First')).then([]);
    spec.given([written]).when(edit(staff)).thenThrows('forbidden', 'Only its author can edit this comment');
    spec.given([written, removed]).when(edit(author)).thenThrows('rule', 'A removed comment cannot be edited');
  });
  it('is removed by its author or staff, once', () => {
    spec
      .given([written])
      .when(remove(author))
      .then([{ type: 'CommentRemoved', data: { ...target, by: author.id, at } }]);
    spec
      .given([written])
      .when(remove(staff))
      .then([{ type: 'CommentRemoved', data: { ...target, by: staff.id, at } }]);
    spec.given([written]).when(remove(other)).thenThrows('forbidden', 'Only its author or staff can remove this comment');
    spec.given([written, removed]).when(remove(author)).then([]);
  });
  it('is reported once per member, not by its author, not once removed', () => {
    const reported: CommentEvent = { type: 'CommentReported', data: { ...target, memberId: other.id, reason: 'Rude', at } };
    spec.given([written]).when(report(other)).then([reported]);
    spec.given([written, reported]).when(report(other)).then([]);
    spec.given([written]).when(report(author)).thenThrows('rule', 'You cannot report your own comment');
    spec.given([written, removed]).when(report(other)).thenThrows('rule', 'This comment was removed');
  });
  it('has its reports dismissed by staff only, which lets members report it again', () => {
    const reported: CommentEvent = { type: 'CommentReported', data: { ...target, memberId: other.id, at } };
    const dismiss = (actor: Actor): CommentCommand => ({ type: 'DismissCommentReports', data: {}, metadata: by(actor) });
    const dismissed: CommentEvent = { type: 'CommentReportsDismissed', data: { ...target, by: staff.id, at } };
    spec.given([written, reported]).when(dismiss(staff)).then([dismissed]);
    spec.given([written, reported]).when(dismiss(other)).thenThrows('forbidden', 'Only admins and staff can dismiss reports');
    spec.given([written]).when(dismiss(staff)).then([]);
    spec
      .given([written, reported, dismissed])
      .when(report(other))
      .then([{ ...reported, data: { ...reported.data, reason: 'Rude' } }]);
  });
  it('is not found before it is written', () => {
    spec.given([]).when(remove(author)).thenThrows('not_found', 'Comment not found');
  });
});
