/** A post's revisions as staff list and preview them (docs/domain/blog.md#revisions). */
import type { DocumentStore } from '../../platform/document-store/port';
import { bylineName } from '../../shared/members/byline';
import type { BlogRevision, BlogRevisionSummary } from '../../shared/blog/schemas';
import { blogAuthors, blogRevisions, type BlogRevisionDocument } from './blog';

/** Newest first; a post saved more often than this shows its latest saves. */
export const REVISIONS_LISTED = 100;

/** The names of the members who saved these revisions, as they are now ("Former member" once erased). */
async function authorNames(store: DocumentStore, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const found = unique.length ? await blogAuthors(store).find({ _id: { $in: unique } }) : [];
  const byId = new Map(found.map((author) => [author._id, author.byline]));
  return new Map(unique.map((id) => [id, bylineName(byId.get(id) ?? null)]));
}

export async function listBlogRevisions(store: DocumentStore, postId: string): Promise<BlogRevisionSummary[]> {
  const found = await blogRevisions(store).find(
    { postId },
    { sort: { at: -1, _id: -1 }, limit: REVISIONS_LISTED, fields: ['postId', 'at', 'authorId', 'title'] },
  );
  const names = await authorNames(
    store,
    found.map((revision) => revision.authorId),
  );
  return found.map((revision) => ({
    id: revision._id,
    at: revision.at,
    author: { id: revision.authorId, name: names.get(revision.authorId)! },
    title: revision.title,
  }));
}

/** One revision of the post; null when the post has no such revision. */
export async function findBlogRevision(store: DocumentStore, postId: string, id: string): Promise<BlogRevision | null> {
  const revision: BlogRevisionDocument | null = await blogRevisions(store).findOne({ _id: id, postId });
  if (!revision) return null;
  const names = await authorNames(store, [revision.authorId]);
  const { _id, at, authorId, title, excerpt, content, tags } = revision;
  return { id: _id, at, author: { id: authorId, name: names.get(authorId)! }, title, excerpt, content, tags };
}
