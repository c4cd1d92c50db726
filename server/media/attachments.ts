/** An upload named by `mediaId` in a post (or made the avatar): it must exist and be the author's own, or staff's to use. */
import { fail, type Actor } from '../../shared/domain';
import type { Media } from '../../shared/media/schemas';
import type { DocumentStore } from '../../platform/document-store/port';
import { mediaCollection, mediaView, type MediaDocument } from '../../projections/media/media';

export async function usableMedia(store: DocumentStore, mediaId: string, actor: Actor): Promise<MediaDocument> {
  const media = await mediaCollection(store).findOne({ _id: mediaId });
  if (!media) throw fail.invalid('Unknown media: upload the file first', { mediaId: 'Unknown media: upload the file first' });
  if (media.ownerId !== actor.id && actor.role !== 'admin' && actor.role !== 'staff') throw fail.forbidden('You can only use files you uploaded yourself');
  return media;
}

/** The upload as the post, event or blog post shows it (its size for that page), or undefined for none. */
export async function attachedMedia(store: DocumentStore, mediaId: string | null | undefined, actor: Actor, variant: 'feed' | 'blog' = 'feed'): Promise<Media | undefined> {
  return mediaId ? mediaView(await usableMedia(store, mediaId, actor), variant) : undefined;
}
