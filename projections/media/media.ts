/**
 * The `media` read model: one document per stored upload, with its files, its owner and what refers to it
 * (`post:<id>`, `event:<id>`, `blog:<id>`, `avatar:<member id>`). Uploads read it to check ownership, posts to show the file, and the
 * sweep (sweep.ts) to find uploads nothing refers to. A deleted upload's document is removed.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import type { MediaUploadedData } from '../../shared/media/media-stream';
import type { Media } from '../../shared/media/schemas';

export const MEDIA = 'media';

/** An upload as MediaUploaded recorded it, under its id, with what refers to it. */
export type MediaDocument = Positioned &
  Omit<MediaUploadedData, 'id'> & {
    _id: string;
    /** What shows it: `post:<id>`, `avatar:<member id>`; an upload with none is an orphan once its grace period is over. */
    references: string[];
    /** `references.length`, indexed with the upload time, so the sweep finds orphans without reading every upload. */
    referenceCount: number;
    /** Its owner erased their account: once nothing refers to it, the next sweep removes it without a grace period. */
    ownerErased?: boolean;
  };

export const mediaCollection = (store: DocumentStore) => store.collection<MediaDocument>(MEDIA);

/** The address a file is served at (server/media/routes.ts). */
export const mediaFileUrl = (key: string) => `/media/${key}`;

const MEDIA_URL = /^\/media\/([0-9a-f-]{36})\//;
/** The upload an address of ours points at (an avatar's profileImageUrl); null for any other address. */
export const mediaIdOfUrl = (url: string | null | undefined) => (url ? (MEDIA_URL.exec(url)?.[1] ?? null) : null);

/** The file a page shows: for an image, the size `variant` of that page; audio has one file. */
export function mediaView(
  media: Pick<MediaDocument, '_id' | 'kind' | 'files' | 'durationSeconds'>,
  variant: 'feed' | 'blog' | 'avatar-192' = 'feed',
): Media {
  const file =
    media.kind === 'audio'
      ? media.files[0]!
      : (media.files.find((f) => f.variant === variant && f.contentType === 'image/webp') ?? media.files[0]!);
  return {
    id: media._id,
    url: mediaFileUrl(file.key),
    kind: media.kind,
    ...(file.width ? { width: file.width, height: file.height! } : {}),
    ...(media.durationSeconds !== undefined ? { durationSeconds: media.durationSeconds } : {}),
  };
}

const withReferences = (media: MediaDocument, references: string[]): MediaDocument => ({
  ...media,
  references,
  referenceCount: references.length,
});

/** Which upload each reference points at (`_id` the reference): its upload's `references` array cannot be indexed. */
type ReferenceDocument = Positioned & {
  _id: string;
  mediaId: string /** For a picture inside a blog post's text: `blog:<post id>`, whose text names it. */;
  holder?: string;
};
/** Beside the references, keyed `inline:blog:<post id>`: the uploads a blog post's text shows, so an edit finds those it no longer shows by id. */
type InlineDocument = Positioned & { _id: string; shown: string[] };
export const MEDIA_REFERENCES = 'media_references';
const referencesCollection = (store: DocumentStore) => store.collection<ReferenceDocument>(MEDIA_REFERENCES);
const inlineCollection = (store: DocumentStore) => store.collection<InlineDocument>(MEDIA_REFERENCES);

interface Move {
  reference: string;
  /** null: to none. */
  mediaId: string | null;
  holder?: string;
}

/**
 * Moves each reference to its upload, taking it from the upload that had it. An upload's document is written once
 * for all the moves of one event (a second write at the same position would be skipped).
 */
async function referAll(store: DocumentStore, moves: Move[], at: number) {
  const changes = new Map<string, { add: string[]; remove: string[] }>();
  const changeOf = (mediaId: string) => changes.get(mediaId) ?? changes.set(mediaId, { add: [], remove: [] }).get(mediaId)!;
  for (const { reference, mediaId } of moves) {
    const held = await referencesCollection(store).findOne({ _id: reference });
    if (held && held.mediaId !== mediaId) changeOf(held.mediaId).remove.push(reference);
    if (mediaId) changeOf(mediaId).add.push(reference);
  }
  for (const [mediaId, { add, remove }] of changes) {
    await applyToDocument(mediaCollection(store), mediaId, at, (current) => {
      if (!current) return current;
      const references = [...new Set([...current.references.filter((r) => !remove.includes(r)), ...add])];
      return references.length === current.references.length && references.every((r, i) => r === current.references[i])
        ? current
        : withReferences(current, references);
    });
  }
  for (const { reference, mediaId, holder } of moves)
    await applyToDocument(referencesCollection(store), reference, at, () => (mediaId ? { mediaId, ...(holder ? { holder } : {}) } : null));
}

/** Moves the reference `reference` to the upload `mediaId` (null: to none), taking it from the upload that had it. */
const refer = (store: DocumentStore, reference: string, mediaId: string | null, at: number) =>
  referAll(store, [{ reference, mediaId }], at);

/** Our uploads a blog post's text shows (`<img src="/media/<id>/…">`, docs/domain/blog.md#pictures-in-the-text). */
const INLINE_MEDIA = /\ssrc="\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//gu;

/**
 * A blog post's references: its upload (`blog:<id>`, when `cover` is not undefined: null for none) and each upload
 * its text shows (`blog:<id>:<upload id>`, so the sweep leaves it; one the text no longer shows is let go). Which its
 * text showed is kept in `inline:blog:<id>`, written last: a replay after a crash in between finds the same ones.
 */
async function referBlog(store: DocumentStore, postId: string, cover: string | null | undefined, content: string, at: number) {
  const holder = `blog:${postId}`;
  const shown = new Set([...content.matchAll(INLINE_MEDIA)].map((match) => match[1]!));
  const inline = `inline:${holder}`;
  const gone = ((await inlineCollection(store).findOne({ _id: inline }))?.shown ?? []).filter((mediaId) => !shown.has(mediaId));
  await referAll(
    store,
    [
      ...(cover !== undefined ? [{ reference: holder, mediaId: cover }] : []),
      ...gone.map((mediaId) => ({ reference: `${holder}:${mediaId}`, mediaId: null })),
      ...[...shown].map((mediaId) => ({ reference: `${holder}:${mediaId}`, mediaId, holder })),
    ],
    at,
  );
  await applyToDocument(inlineCollection(store), inline, at, () => (shown.size > 0 ? { shown: [...shown] } : null));
}

/**
 * An erased member's uploads (docs/domain/members.md#erasure): their picture goes, and with their content removed,
 * every upload of theirs; what their kept posts and events show stays. The sweep takes the rest without waiting.
 */
async function forgetOwner(store: DocumentStore, memberId: string, contentRemoved: boolean, at: number) {
  // A picture is always one's own upload. Each document is written once: a second write at the same position would be skipped.
  for (const upload of await mediaCollection(store).find({ ownerId: memberId })) {
    const dropped = upload.references.filter((reference) => contentRemoved || reference === `avatar:${memberId}`);
    await applyToDocument(
      mediaCollection(store),
      upload._id,
      at,
      (current) =>
        current && {
          ...withReferences(
            current,
            current.references.filter((reference) => !dropped.includes(reference)),
          ),
          ownerErased: true,
        },
    );
    for (const reference of dropped) await applyToDocument(referencesCollection(store), reference, at, () => null);
  }
}

export const mediaProjection: Projection = {
  name: 'media',
  // 3: without the index on references' holder, which no query used.
  version: 3,
  collections: [MEDIA, MEDIA_REFERENCES],
  async setup(store) {
    await mediaCollection(store).createIndex({ referenceCount: 1, uploadedAt: 1 });
    await mediaCollection(store).createIndex({ ownerId: 1, uploadedAt: -1 });
  },
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    const at = recorded.position;
    switch (typed?.stream) {
      case 'media': {
        const { event, id } = typed;
        if (event.type === 'MediaUploaded') {
          const { id: _id, uploadedAt, ...data } = event.data;
          await applyToDocument(mediaCollection(store), id, at, () => ({ ...data, uploadedAt, references: [], referenceCount: 0 }));
        } else if (event.type === 'MediaDeleted') await applyToDocument(mediaCollection(store), id, at, () => null);
        return;
      }
      case 'post': {
        const { event, id } = typed;
        if (event.type === 'PostSubmitted' && event.data.media) await refer(store, `post:${id}`, event.data.media.id, at);
        else if (event.type === 'PostDeleted') await refer(store, `post:${id}`, null, at);
        return;
      }
      case 'event': {
        const { event, id } = typed;
        if (event.type === 'EventScheduled' || event.type === 'EventEdited')
          await refer(store, `event:${id}`, event.data.fields.media?.id ?? null, at);
        else if (event.type === 'EventDeleted') await refer(store, `event:${id}`, null, at);
        return;
      }
      case 'blog': {
        const { event, id } = typed;
        if (event.type === 'BlogPostDrafted')
          await referBlog(store, id, event.data.media ? event.data.media.id : undefined, event.data.content, at);
        else if (event.type === 'BlogPostEdited')
          await referBlog(store, id, event.data.media === undefined ? undefined : (event.data.media?.id ?? null), event.data.content, at);
        else if (event.type === 'BlogPostDeleted') await referBlog(store, id, null, '', at);
        return;
      }
      case 'member': {
        const { event, id } = typed;
        if (event.type === 'MemberProfileChanged' && event.data.profileImageUrl !== undefined)
          await refer(store, `avatar:${id}`, mediaIdOfUrl(event.data.profileImageUrl), at);
        if (event.type === 'MemberErased') await forgetOwner(store, id, event.data.content === 'removed', at);
        return;
      }
      default:
        return;
    }
  },
};
