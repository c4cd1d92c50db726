/**
 * Which posts wait behind the newsfeed's "N new posts" pill. New posts arrive at the top of the feed (after pinned
 * ones), so the posts the reader has not seen that the feed lists before the last post they have seen are new. Unseen
 * posts after it are older ones — the next page, loaded with "Load More Posts" while scrolled down, or a post pushed
 * off the first page by the new ones — and show where they fall.
 */
export function splitNewPosts<T extends { id: string }>(posts: readonly T[], seen: ReadonlySet<string>): { fresh: T[]; shown: T[] } {
  const lastSeen = posts.findLastIndex((post) => seen.has(post.id));
  const isFresh = (post: T, index: number) => index < lastSeen && !seen.has(post.id);
  return { fresh: posts.filter(isFresh), shown: posts.filter((post, index) => !isFresh(post, index)) };
}
