/** The upload's decider, given / when / then (docs/domain/media.md). */
import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec';
import { mediaDecider, type MediaCommand, type MediaEvent } from '../../../shared/media/media-stream';
import type { Actor } from '../../../shared/domain';

const ID = '6f1c1a52-3a5b-4a37-9d38-0c6f1f4a1e01';
const NOW = new Date('2026-11-25T12:00:00Z');
const member: Actor = { id: 'member-1', role: 'member' };
const spec = deciderSpec(mediaDecider);

const files = [{ variant: 'feed' as const, key: `${ID}/feed.webp`, contentType: 'image/webp', bytes: 1000, width: 800, height: 600 }];
const record = (actor: Actor | null): MediaCommand => ({
  type: 'RecordUpload',
  data: { id: ID, kind: 'image', contentType: 'image/jpeg', files, width: 4000, height: 3000 },
  metadata: { now: NOW, actor },
});
const sweep: MediaCommand = { type: 'DeleteOrphan', data: {}, metadata: { now: NOW, actor: null } };
const uploaded: MediaEvent = {
  type: 'MediaUploaded',
  data: {
    id: ID,
    ownerId: member.id,
    kind: 'image',
    contentType: 'image/jpeg',
    files,
    width: 4000,
    height: 3000,
    uploadedAt: '2026-11-24T10:00:00.000Z',
  },
};
const deleted: MediaEvent = { type: 'MediaDeleted', data: { reason: 'orphaned', at: NOW.toISOString() } };

describe('RecordUpload', () => {
  it('records the upload as the actor’s, at the time of the command', () =>
    spec
      .given([])
      .when(record(member))
      .then([{ type: 'MediaUploaded', data: { ...uploaded.data, uploadedAt: NOW.toISOString() } }]));
  it('needs a member', () => spec.given([]).when(record(null)).thenThrows('unauthenticated'));
  it('records an id once', () => spec.given([uploaded]).when(record(member)).thenThrows('conflict', 'This upload is already recorded'));
});

describe('DeleteOrphan', () => {
  it('deletes a stored upload', () => spec.given([uploaded]).when(sweep).then([deleted]));
  it('changes nothing the second time (two sweeps at once)', () => spec.given([uploaded, deleted]).when(sweep).then([]));
  it('knows no upload that was never recorded', () => spec.given([]).when(sweep).thenThrows('not_found', 'Media not found'));
});
