/**
 * An uploaded file (stream `media-<id>`): recorded once its variants are stored, deleted by the sweep when nothing
 * refers to it after the grace period (docs/domain/media.md). What refers to it is the `media` read model's to know.
 */
import { type CommandMetadata, type Decider, assertNever, fail } from '../domain';
import type { MediaKind } from './schemas';

/** One stored file of an upload: the page size it serves and where it is. */
export interface MediaFile {
  variant: 'avatar-96' | 'avatar-192' | 'feed' | 'blog' | 'audio';
  key: string;
  contentType: string;
  bytes: number;
  width?: number;
  height?: number;
}

export interface MediaUploadedData {
  id: string;
  ownerId: string;
  kind: MediaKind;
  /** The type sniffed from the uploaded bytes. */
  contentType: string;
  files: MediaFile[];
  /** The picture as shown (EXIF orientation applied), before any resizing. */
  width?: number;
  height?: number;
  durationSeconds?: number;
  uploadedAt: string;
}

export type MediaEvent =
  | { type: 'MediaUploaded'; data: MediaUploadedData }
  | { type: 'MediaDeleted'; data: { reason: 'orphaned'; at: string } };

export type MediaCommand =
  | { type: 'RecordUpload'; data: Omit<MediaUploadedData, 'ownerId' | 'uploadedAt'>; metadata: CommandMetadata }
  | { type: 'DeleteOrphan'; data: Record<string, never>; metadata: CommandMetadata };

export interface MediaState {
  status: 'none' | 'uploaded' | 'deleted';
  ownerId: string;
}

export const mediaDecider: Decider<MediaState, MediaCommand, MediaEvent> = {
  initialState: () => ({ status: 'none', ownerId: '' }),

  evolve(state, event) {
    switch (event.type) {
      case 'MediaUploaded':
        return { status: 'uploaded', ownerId: event.data.ownerId };
      case 'MediaDeleted':
        return { ...state, status: 'deleted' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const { actor, now } = command.metadata;
    switch (command.type) {
      case 'RecordUpload':
        if (!actor) throw fail.unauthenticated();
        if (state.status !== 'none') throw fail.conflict('This upload is already recorded');
        return [{ type: 'MediaUploaded', data: { ...command.data, ownerId: actor.id, uploadedAt: now.toISOString() } }];
      case 'DeleteOrphan':
        // The sweep runs in any number of processes: the second to reach a deleted upload changes nothing.
        if (state.status === 'none') throw fail.notFound('Media not found');
        return state.status === 'deleted' ? [] : [{ type: 'MediaDeleted', data: { reason: 'orphaned', at: now.toISOString() } }];
      default:
        return assertNever(command);
    }
  },
};
