/**
 * Media on the local disk, under one directory (MEDIA_DIR, `.data/media` by default): one folder per media id.
 * A file is written to a temporary name and renamed into place, so a reader never sees half of one. The content
 * type is the key's extension's (keys are checked, so it is always one of ours).
 */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { checkedKey, contentTypeOfKey, type ByteRange, type MediaStorage } from './port';

export function createDiskMediaStorage(directory: string): MediaStorage {
  const root = resolve(directory);
  /** The file of a checked key; the prefix test is a second guard should the key check ever loosen. */
  function pathOf(key: string) {
    const path = resolve(root, checkedKey(key));
    if (!path.startsWith(root + sep)) throw new Error('A media key left the store');
    return path;
  }
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

  async function sizeOf(key: string): Promise<number | null> {
    try {
      return (await stat(pathOf(key))).size;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  return {
    name: 'disk',
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(join(path, '..'), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    },
    async get(key, range?: ByteRange) {
      const size = await sizeOf(key);
      if (size === null) return null;
      const body = createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
      return { body, size, contentType: contentTypeOfKey(key) };
    },
    async stat(key) {
      const size = await sizeOf(key);
      return size === null ? null : { size, contentType: contentTypeOfKey(key) };
    },
    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
      // The media's folder goes with its last file; another file still in it keeps it.
      await rmdir(join(path, '..')).catch(() => undefined);
    },
    async *list() {
      let folders: string[];
      try {
        folders = await readdir(root);
      } catch (error) {
        if (missing(error)) return;
        throw error;
      }
      for (const folder of folders) {
        const files = await readdir(join(root, folder)).catch(() => [] as string[]);
        for (const file of files) if (!file.endsWith('.partial')) yield `${folder}/${file}`;
      }
    },
    async close() {},
  };
}
