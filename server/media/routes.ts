/**
 * Media (docs/domain/media.md): uploads (POST /api/media), the files themselves (GET /media/<id>/<file>, long
 * immutable caching: a key's bytes never change) and the avatar (PUT /api/me/avatar).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import * as v from 'valibot';
import { DomainError, fail } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { text } from '../../shared/text-schema';
import { mediaDecider } from '../../shared/media/media-stream';
import { memberDecider } from '../../shared/members/member-stream';
import { MEDIA_LIMITS, MediaSchema, SetAvatarSchema, type Media } from '../../shared/media/schemas';
import { UserSchema } from '../../shared/members/schemas';
import { MediaFileNameSchema } from '../../platform/media-storage/port';
import { mediaFileUrl, mediaView } from '../../projections/media';
import { membersCollection } from '../../projections/members';
import { ErrorSchema, noContent, routeOptions, type ValibotTypeProvider } from '../http/openapi';
import type { ApiDependencies } from '../dependencies';
import { userDto } from '../members/routes';
import { MediaTooLargeError, processUpload } from './processing';
import { usableMedia } from './attachments';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The largest upload's body: the largest file and its multipart framing. */
const UPLOAD_BODY_LIMIT = MEDIA_LIMITS.audioBytes + 64 * 1024;

const FileParams = v.object({
  id: v.pipe(text(), v.uuid('Media not found')),
  file: v.pipe(text(), MediaFileNameSchema),
});

/** One `bytes=start-end` range (or `start-`, or `-suffix`) within `size`; null for none, 'unsatisfiable' for one outside it. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: answered whole, which a client must accept.
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [start, end] =
    match[1] === ''
      ? [Math.max(0, size - Number(match[2])), size - 1]
      : [Number(match[1]), match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)];
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

export async function mediaRoutes(
  fastify: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'store' | 'eventStore' | 'handle' | 'config' | 'now' | 'media'> },
) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>();
  const { store, handle, config, media: storage } = services;
  const route = routeOptions(['media']);
  // Multipart bodies only here: the upload reads its one file itself, after access and the rate limit have let it in.
  await app.register(multipart, { limits: { files: 1, fields: 0, parts: 1, fileSize: MEDIA_LIMITS.audioBytes } });

  app.post(
    '/api/media',
    {
      ...route(
        'signed-in',
        'Upload a photo or audio file (multipart, the field `file`): images are re-encoded without their metadata into the sizes the pages use',
        { consumes: ['multipart/form-data'], response: { 201: MediaSchema, 400: ErrorSchema, 413: ErrorSchema } },
        // Counted per member (an address for a request without a session, which access then refuses).
        {
          rateLimit: {
            max: config.rateLimits.media,
            timeWindow: '1 hour',
            keyGenerator: (request) => request.session?.memberId ?? request.ip,
          },
        },
      ),
      bodyLimit: UPLOAD_BODY_LIMIT,
    },
    async (request, reply) => {
      const actor = request.actor!;
      if (!request.isMultipart())
        throw fail.invalid('Send the file as multipart/form-data in the field "file"', { file: 'Choose a file to upload' });
      const overLimit = () =>
        new MediaTooLargeError(
          `Files may be at most ${MEDIA_LIMITS.audioBytes / 1024 / 1024} MB (images ${MEDIA_LIMITS.imageBytes / 1024 / 1024} MB).`,
        );
      // Declared larger than any upload may be: refused before a byte of it is read (the multipart parser reads the
      // body only here, so fastify's bodyLimit never sees its length), and the connection closed after the answer.
      if (Number(request.headers['content-length'] ?? 0) > UPLOAD_BODY_LIMIT) throw overLimit();
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== 'file')
          throw fail.invalid('Send the file in the field "file"', { file: 'Choose a file to upload' });
        // Refused the moment it passes the limit, not once the rest of it has arrived (the reader drops what comes
        // after the limit and would wait for the part's end, which a client sending on never reaches).
        bytes = await new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          part.file.on('data', (chunk: Buffer) => chunks.push(chunk));
          part.file.once('limit', () => reject(overLimit()));
          part.file.once('end', () => (part.file.truncated ? reject(overLimit()) : resolve(Buffer.concat(chunks))));
          part.file.once('error', reject);
        });
      } catch (error) {
        if (error instanceof DomainError || error instanceof MediaTooLargeError) throw error;
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw overLimit();
        // A body that is not the multipart it says it is (cut short, no boundary, parts out of order).
        throw fail.invalid('The upload could not be read. Please choose the file again.', { file: 'The upload could not be read' });
      }
      if (bytes.length === 0) throw fail.invalid('The file is empty', { file: 'The file is empty' });
      const id = randomUUID();
      const upload = await processUpload(id, bytes);
      const stored: string[] = [];
      try {
        for (const file of upload.files) {
          await storage.put(file.key, file.data, file.contentType);
          stored.push(file.key);
        }
        const files = upload.files.map(({ data: _data, ...file }) => file);
        const { kind, contentType, width, height, durationSeconds } = upload;
        await handle(
          mediaDecider,
          streamName('media', id),
          {
            type: 'RecordUpload',
            data: {
              id,
              kind,
              contentType,
              files,
              ...(width ? { width, height: height! } : {}),
              ...(durationSeconds !== undefined ? { durationSeconds } : {}),
            },
            metadata: { now: services.now(), actor },
          },
          { actorId: actor.id },
        );
        const answer: Media = mediaView({ _id: id, kind, files, ...(durationSeconds !== undefined ? { durationSeconds } : {}) });
        return reply.status(201).send(answer);
      } catch (error) {
        // Nothing stays stored for an upload the log does not hold.
        await Promise.all(stored.map((key) => storage.delete(key).catch(() => undefined)));
        throw error;
      }
    },
  );

  app.get(
    '/media/:id/:file',
    route('public', 'An uploaded file, cached for a year (its address changes with its content); audio answers byte ranges', {
      params: FileParams,
      response: {
        200: { description: 'The file', contentType: 'application/octet-stream' },
        206: { description: 'The requested bytes of the file', contentType: 'application/octet-stream' },
        304: noContent('Not modified (If-None-Match)'),
        404: ErrorSchema,
        416: noContent('The range is outside the file'),
      },
    }),
    async (request, reply) => {
      const key = `${request.params.id}/${request.params.file}`;
      const etag = `"${key}"`;
      reply
        .header('cache-control', IMMUTABLE)
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff')
        .header('accept-ranges', 'bytes');
      // A list of tags, weak ones (W/) included, as caches send them.
      const asked = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
      if (asked.includes(etag)) return reply.status(304).send();
      const rangeHeader = request.headers.range;
      if (rangeHeader) {
        const found = await storage.stat(key);
        if (!found) throw fail.notFound('Media not found');
        const range = byteRange(rangeHeader, found.size);
        if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${found.size}`).send();
        if (range) {
          const file = await storage.get(key, range);
          if (!file) throw fail.notFound('Media not found');
          return reply
            .status(206)
            .type(file.contentType)
            .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
            .header('content-length', String(range.end - range.start + 1))
            .send(file.body);
        }
      }
      const file = await storage.get(key);
      if (!file) throw fail.notFound('Media not found');
      return reply.type(file.contentType).header('content-length', String(file.size)).send(file.body);
    },
  );

  app.put(
    '/api/me/avatar',
    route('signed-in', 'Make one of my uploaded images my profile picture', {
      tags: ['members', 'media'],
      body: SetAvatarSchema,
      response: { 200: UserSchema, 403: ErrorSchema, 422: ErrorSchema },
    }),
    async (request) => {
      const actor = request.actor!;
      const media = await usableMedia(services, request.body.mediaId, actor);
      if (media.ownerId !== actor.id) throw fail.forbidden('You can only use files you uploaded yourself');
      if (media.kind !== 'image') throw fail.rule('Only a picture can be a profile picture');
      const avatar = media.files.find((file) => file.variant === 'avatar-192') ?? media.files[0]!;
      await handle(
        memberDecider,
        streamName('member', actor.id),
        { type: 'ChangeProfile', data: { profileImageUrl: mediaFileUrl(avatar.key) }, metadata: { now: services.now(), actor } },
        { actorId: actor.id },
      );
      const member = await membersCollection(store).findOne({ _id: actor.id });
      if (!member) throw fail.notFound('Member not found');
      return userDto(member);
    },
  );
}
