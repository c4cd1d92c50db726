/**
 * The rules of discussions as small pure functions: the deciders and the routes ask them, the tests state them.
 * Each answers null when allowed, or the refusal (a DomainError) to throw.
 */
import { type Actor, type DomainError, type Role, fail } from '../domain';

const STAFF_ROLES: readonly Role[] = ['admin', 'staff'];
const WRITERS: readonly Role[] = ['admin', 'staff', 'member'];

/** Staff (and admins) manage categories and moderate topics. */
export const isDiscussionStaff = (role: Role) => STAFF_ROLES.includes(role);

/** Subscribers read discussions; members, staff and admins write. */
export const writingRefusal = (actor: Actor): DomainError | null =>
  WRITERS.includes(actor.role) ? null : fail.forbidden('Subscribers can read discussions but not write in them');

/** A locked topic takes no more replies. */
export const lockedRefusal = (locked: boolean): DomainError | null =>
  locked ? fail.conflict('This topic is locked: it takes no more replies') : null;

/** Only its author edits a reply (or a topic's opening post). */
export const editRefusal = (actor: Actor, authorId: string): DomainError | null =>
  actor.id === authorId ? null : fail.forbidden('Only its author can edit this');

/** Its author deletes a reply; staff may too. */
export const deleteRefusal = (actor: Actor, authorId: string): DomainError | null =>
  actor.id === authorId || isDiscussionStaff(actor.role) ? null : fail.forbidden('Only its author or staff can delete this reply');

/** A category that still holds topics cannot be deleted: they would have nowhere to be. */
export const categoryDeleteRefusal = (topicCount: number): DomainError | null =>
  topicCount > 0 ? fail.conflict(`This category still holds ${topicCount} topic${topicCount === 1 ? '' : 's'}: move them first`) : null;

/** Who may read a reply's edit history: its author and staff. */
export const canSeeRevisions = (actor: Actor, authorId: string) => actor.id === authorId || isDiscussionStaff(actor.role);

/** A category's address from its name: lowercase words joined by dashes. */
export function categorySlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '');
  return slug || 'category';
}

/**
 * The replies a member has not read in a topic: those numbered past where they read up to. A topic they never opened
 * counts whole when it began after they joined (all of it is new to them), and not at all when it is older.
 */
export function unreadReplies(topic: { lastNumber: number; createdAt: string }, readUpTo: number | null, joinedAt: string | null): number {
  if (readUpTo !== null) return Math.max(0, topic.lastNumber - readUpTo);
  return joinedAt !== null && topic.createdAt >= joinedAt ? topic.lastNumber : 0;
}

/** Whether a topic has anything new for a member: unread replies, or (never opened, begun after they joined) itself. */
export function hasUnread(topic: { lastNumber: number; createdAt: string }, readUpTo: number | null, joinedAt: string | null): boolean {
  if (readUpTo !== null) return topic.lastNumber > readUpTo;
  return joinedAt !== null && topic.createdAt >= joinedAt;
}
