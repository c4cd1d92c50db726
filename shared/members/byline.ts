/**
 * How a member is shown beside what they wrote or organise: their name, picture and role. Every read model that shows
 * it keeps its own copy, folded from the member's own events with `bylineChange`, so that no read model reads
 * another's (docs/architecture.md#read-model-ownership).
 */
import type { Role } from '../domain';
import { FORMER_MEMBER } from '../personal-data';
import { displayName } from './display';
import type { MemberEvent } from './member-stream';

export type Byline = { firstName: string; lastName: string; role: Role; profileImageUrl: string | null };

/** What a member event does to their byline; null when it changes nothing of it (a password, an address, a bio). */
export function bylineChange(event: MemberEvent): ((byline: Byline | null) => Byline | null) | null {
  switch (event.type) {
    case 'MemberRegistered': {
      const { firstName, lastName, role } = event.data;
      return () => ({ firstName, lastName, role, profileImageUrl: null });
    }
    case 'MemberProfileChanged': {
      const { firstName, lastName, profileImageUrl } = event.data;
      const shown = {
        ...(firstName !== undefined ? { firstName } : {}),
        ...(lastName !== undefined ? { lastName } : {}),
        ...(profileImageUrl !== undefined ? { profileImageUrl } : {}),
      };
      return Object.keys(shown).length > 0 ? (byline) => byline && { ...byline, ...shown } : null;
    }
    case 'MemberRoleChanged':
      return (byline) => byline && { ...byline, role: event.data.role };
    case 'MemberErased':
      return () => null;
    default:
      return null;
  }
}

/** The name shown for a byline: "Former member" for a member the read model does not know (erased, or never registered). */
export const bylineName = (byline: Pick<Byline, 'firstName' | 'lastName'> | null) => displayName(byline ?? FORMER_MEMBER);

/** A member as a read model that names its authors when read keeps them: their byline, until they are erased. */
export type BylineDocument = { _id: string; byline: Byline | null };

/**
 * The bylines of these members, by id, from a read model's `BylineDocument`s: one query, none for no ids, and for one id
 * a read by `_id` (which the process running the read models answers from what it last committed).
 */
export async function bylinesOf(
  bylines: {
    find(filter: { _id: { $in: string[] } }): Promise<BylineDocument[]>;
    findOne(filter: { _id: string }): Promise<BylineDocument | null>;
  },
  ids: Iterable<string>,
): Promise<Map<string, Byline | null>> {
  const wanted = [...new Set(ids)];
  const found =
    wanted.length === 0
      ? []
      : wanted.length === 1
        ? [await bylines.findOne({ _id: wanted[0]! })]
        : await bylines.find({ _id: { $in: wanted } });
  return new Map(found.flatMap((document) => (document ? [[document._id, document.byline] as const] : [])));
}

/** An author as shown beside what they wrote: named as they are now (`bylines`), with the role they wrote it in. */
export function shownAuthor({ id, role }: { id: string; role: Role }, bylines: ReadonlyMap<string, Byline | null>) {
  const byline = bylines.get(id) ?? null;
  return { id, name: bylineName(byline), avatar: byline?.profileImageUrl ?? null, role };
}

/**
 * A member as a read model that shows their byline keeps them: the byline (null when it does not know them, or once
 * they are erased) beside the ids of their documents there, by kind, so that a new name, a new picture or an erasure
 * reaches each of those documents by its id, with no query by author on the projection's path.
 */
export type BylineHolder<Kinds extends string> = { byline: Byline | null } & { [Kind in Kinds]?: string[] };

/** `ids` with `id` (once, at the end if new). */
export const withId = (ids: readonly string[] | undefined, id: string): string[] => (ids?.includes(id) ? [...ids] : [...(ids ?? []), id]);

/** `ids` without `id`. */
export const withoutId = (ids: readonly string[] | undefined, id: string): string[] => (ids ?? []).filter((one) => one !== id);

/** Whether a holder still says anything: its byline, or ids of some kind. A holder that says nothing is deleted. */
export const holdsAnything = (holder: { byline: Byline | null } & Record<string, unknown>) =>
  holder.byline !== null || Object.values(holder).some((value) => Array.isArray(value) && value.length > 0);
