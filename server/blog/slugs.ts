/**
 * Gives a post its address (docs/domain/blog.md#addresses): the first of `wanted`, `wanted-2`, `wanted-3`… that no
 * other post holds. A slug is claimed for one post for good in its stream `slug-<slug>` (the first event says
 * whose), so two writers at the same moment never share one; slugs the projection gave to posts drafted before
 * claims are read from the read model. The slug then goes into the post's own event, so a replay gives the same.
 */
import { fail } from '../../shared/domain';
import { slugCandidate } from '../../shared/blog/slug';
import { streamName, type BlogSlugClaimed } from '../../shared/streams';
import { WrongExpectedVersionError, type EventStore } from '../../platform/event-store/port';
import type { DocumentStore } from '../../platform/document-store/port';
import { findBlogPost } from '../../projections/blog';

/** Far more than any title needs; past it something is wrong. */
const MAX_CANDIDATES = 1_000;

async function claimant(eventStore: EventStore, slug: string): Promise<string | null> {
  const [first] = await eventStore.readStream(streamName('slug', slug));
  return first ? (first.data as BlogSlugClaimed['data']).postId : null;
}

/** Whether `slug` is free for `postId`, claiming it when it is. */
async function claim(eventStore: EventStore, store: DocumentStore, slug: string, postId: string): Promise<boolean> {
  const shown = await findBlogPost(store, slug);
  if (shown && shown.post._id !== postId) return false;
  const holder = await claimant(eventStore, slug);
  if (holder !== null) return holder === postId;
  const claimed: BlogSlugClaimed = { type: 'BlogSlugClaimed', data: { postId } };
  try {
    await eventStore.append(streamName('slug', slug), [claimed], { expectedVersion: 'no_stream' });
    return true;
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    return (await claimant(eventStore, slug)) === postId;
  }
}

/** The slug `postId` gets for `wanted`: `wanted` itself when free (or already its own), else the next free `wanted-n`. */
export async function claimSlug(
  services: { eventStore: EventStore; store: DocumentStore },
  wanted: string,
  postId: string,
): Promise<string> {
  for (let n = 1; n <= MAX_CANDIDATES; n++) {
    const candidate = slugCandidate(wanted, n);
    if (await claim(services.eventStore, services.store, candidate, postId)) return candidate;
  }
  throw fail.conflict('No free address is left for this title. Please choose another slug.');
}
