/**
 * How many posts each member has in the feed (submitted and not deleted), for
 * the member list. Kept by the members feature so the list does not depend on
 * how the feed's own read models are shaped. An erased member's count goes.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const MEMBER_POST_COUNTS = 'member_post_counts';
/** Which member wrote each post, so a deletion can be counted against its author. */
const POST_AUTHORS = 'post_authors';

type PostCount = Positioned & { _id: string; posts: number };
type PostAuthor = Positioned & { _id: string; authorId: string };

export async function postCountsByAuthor(store: DocumentStore, memberIds: string[]): Promise<Map<string, number>> {
  const rows = await store.collection<PostCount>(MEMBER_POST_COUNTS).find({ _id: { $in: memberIds } });
  return new Map(rows.map((row) => [row._id, row.posts]));
}

export const memberPostCountsProjection: Projection = {
  name: 'member-post-counts',
  version: 1,
  collections: [MEMBER_POST_COUNTS, POST_AUTHORS],
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    const counts = store.collection<PostCount>(MEMBER_POST_COUNTS);
    if (typed?.stream === 'member' && typed.event.type === 'MemberErased')
      return applyToDocument(counts, typed.id, recorded.position, () => null);
    if (typed?.stream !== 'post') return;
    const { id: postId, event } = typed;
    if (event.type === 'PostSubmitted') {
      await applyToDocument(store.collection<PostAuthor>(POST_AUTHORS), postId, recorded.position, () => ({
        authorId: event.data.authorId,
      }));
      await applyToDocument(counts, event.data.authorId, recorded.position, (current) => ({ posts: (current?.posts ?? 0) + 1 }));
    } else if (event.type === 'PostDeleted') {
      const author = await store.collection<PostAuthor>(POST_AUTHORS).findOne({ _id: postId });
      if (author)
        await applyToDocument(counts, author.authorId, recorded.position, (current) => ({ posts: Math.max(0, (current?.posts ?? 0) - 1) }));
    }
  },
};
