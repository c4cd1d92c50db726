/** An upload named by `mediaId` in a post or event (or made the avatar): it must exist and be the author's own, or staff's to use. */
import { fail, fold, type Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { mediaDecider, type MediaEvent } from '../../shared/media/media-stream';
import type { Media } from '../../shared/media/schemas';
import type { DocumentStore } from '../../platform/document-store/port';
import type { EventStore } from '../../platform/event-store/port';
import { mediaCollection, mediaView, type MediaDocument } from '../../projections/media';

export interface MediaSources {
  store: DocumentStore;
  eventStore: EventStore;
}

const unknown = () => fail.invalid('Unknown media: upload the file first', { mediaId: 'Unknown media: upload the file first' });

/**
 * The upload from its read model; one the read model has not reached yet (a member posting the moment the upload
 * answered, while the projections lag) from its stream, as the command handler would read it.
 */
async function findMedia(
  { store, eventStore }: MediaSources,
  mediaId: string,
): Promise<Pick<MediaDocument, '_id' | 'ownerId' | 'kind' | 'files' | 'durationSeconds'> | null> {
  const media = await mediaCollection(store).findOne({ _id: mediaId });
  if (media) return media;
  const events = (await eventStore.readStream(streamName('media', mediaId))) as unknown as MediaEvent[];
  if (fold(mediaDecider, events).status !== 'uploaded') return null;
  const uploaded = events.find((event) => event.type === 'MediaUploaded');
  if (!uploaded) return null;
  const { id, ownerId, kind, files, durationSeconds } = uploaded.data;
  return { _id: id, ownerId, kind, files, ...(durationSeconds !== undefined ? { durationSeconds } : {}) };
}

export async function usableMedia(sources: MediaSources, mediaId: string, actor: Actor) {
  const media = await findMedia(sources, mediaId);
  if (!media) throw unknown();
  if (media.ownerId !== actor.id && actor.role !== 'admin' && actor.role !== 'staff')
    throw fail.forbidden('You can only use files you uploaded yourself');
  return media;
}

/** The upload as the post or event shows it (its size for that page), or undefined for none. */
export async function attachedMedia(
  sources: MediaSources,
  mediaId: string | null | undefined,
  actor: Actor,
  variant: 'feed' | 'blog' = 'feed',
): Promise<Media | undefined> {
  return mediaId ? mediaView(await usableMedia(sources, mediaId, actor), variant) : undefined;
}
