/**
 * One contract for every media storage adapter: the local disk always, S3-compatible storage when S3_URL is set
 * (e.g. `S3_URL=http://minioadmin:minioadmin@127.0.0.1:9000`; reported as skipped otherwise). Each run writes under
 * its own prefix (S3) or directory (disk), so the suite works against a shared bucket.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskMediaStorage } from '../../platform/media-storage/disk';
import { connectS3MediaStorage } from '../../platform/media-storage/s3';
import { MediaStorageKeyError, mediaKey, type MediaStorage } from '../../platform/media-storage/port';

const s3Url = process.env.S3_URL;

interface Opened {
  storage: MediaStorage;
  close(): Promise<void>;
}

const adapters: { name: string; skip: boolean; open(): Promise<Opened> }[] = [
  {
    name: 'disk',
    skip: false,
    async open() {
      const directory = await mkdtemp(join(tmpdir(), 'bhc-media-contract-'));
      const storage = createDiskMediaStorage(directory);
      return {
        storage,
        async close() {
          // Every folder emptied by delete is gone too.
          expect(await readdir(directory)).toEqual([]);
          await rm(directory, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'S3',
    skip: !s3Url,
    async open() {
      const storage = await connectS3MediaStorage({
        url: s3Url!,
        bucket: process.env.S3_BUCKET ?? 'bhc-media-test',
        region: process.env.S3_REGION ?? 'us-east-1',
        prefix: `contract-${randomBytes(6).toString('hex')}/`,
      });
      return { storage, close: () => storage.close() };
    },
  },
];

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function keys(storage: MediaStorage) {
  const all: string[] = [];
  for await (const key of storage.list()) all.push(key);
  return all.sort();
}

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`media storage contract: ${adapter.name}`, () => {
    let storage: MediaStorage;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ storage, close } = await adapter.open());
    });
    afterAll(async () => {
      for (const key of await keys(storage)) await storage.delete(key);
      await close?.();
    });

    it('stores, reads back, states and lists a file', async () => {
      const key = mediaKey(randomUUID(), 'feed', 'webp');
      const bytes = randomBytes(70_000);
      await storage.put(key, bytes, 'image/webp');
      const file = await storage.get(key);
      expect(file).toMatchObject({ size: bytes.length, contentType: 'image/webp' });
      expect((await bytesOf(file!.body)).equals(bytes)).toBe(true);
      expect(await storage.stat(key)).toEqual({ size: bytes.length, contentType: 'image/webp' });
      expect(await keys(storage)).toContain(key);
    });

    it('reads a byte range and still names the whole size', async () => {
      const key = mediaKey(randomUUID(), 'audio', 'mp3');
      const bytes = randomBytes(10_000);
      await storage.put(key, bytes, 'audio/mpeg');
      const part = await storage.get(key, { start: 100, end: 1_099 });
      expect(part).toMatchObject({ size: 10_000, contentType: 'audio/mpeg' });
      expect((await bytesOf(part!.body)).equals(bytes.subarray(100, 1_100))).toBe(true);
      const tail = await storage.get(key, { start: 9_990, end: 9_999 });
      expect((await bytesOf(tail!.body)).equals(bytes.subarray(9_990))).toBe(true);
    });

    it('answers null for a file that is not there, and deleting one twice is no error', async () => {
      const id = randomUUID();
      const key = mediaKey(id, 'blog', 'webp');
      expect(await storage.get(key)).toBeNull();
      expect(await storage.stat(key)).toBeNull();
      await storage.put(key, Buffer.from('x'), 'image/webp');
      await storage.put(mediaKey(id, 'feed', 'webp'), Buffer.from('y'), 'image/webp');
      await storage.delete(key);
      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
      // Its sibling stays.
      expect(await storage.stat(mediaKey(id, 'feed', 'webp'))).toEqual({ size: 1, contentType: 'image/webp' });
      await storage.delete(mediaKey(id, 'feed', 'webp'));
      expect((await keys(storage)).some((k) => k.startsWith(id))).toBe(false);
    });

    it('lists past one page of keys', async () => {
      const id = randomUUID();
      const written = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const key = mediaKey(randomUUID(), i % 2 ? 'feed' : 'blog', 'webp');
          await storage.put(key, Buffer.from(id), 'image/webp');
          return key;
        }),
      );
      const listed = await keys(storage);
      for (const key of written) expect(listed).toContain(key);
    });

    it('refuses any key that is not a media key, before touching the store', async () => {
      const bad = [
        '../secret',
        `${randomUUID()}/../../etc/passwd`,
        `${randomUUID()}/feed.exe`,
        '/etc/passwd',
        `${randomUUID()}/feed.webp/x`,
        `${randomUUID()}\\feed.webp`,
        '',
      ];
      for (const key of bad) {
        await expect(storage.put(key, Buffer.from('x'), 'image/webp'), key).rejects.toBeInstanceOf(MediaStorageKeyError);
        await expect(storage.get(key), key).rejects.toBeInstanceOf(MediaStorageKeyError);
        await expect(storage.delete(key), key).rejects.toBeInstanceOf(MediaStorageKeyError);
      }
    });
  });
}
