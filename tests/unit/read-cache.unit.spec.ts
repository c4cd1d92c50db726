/** The answers kept until the next event (server/http/read-cache.ts): when full, the least recently read goes. */
import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../server/http/read-cache';

describe('read cache', () => {
  it('keeps what is read again when full, reads again after a new event, and does not keep a failed read', async () => {
    let position = 1;
    const cached = createReadCache({ fresh: async () => position }, { maxEntries: 2 });
    const loads: string[] = [];
    const read = (key: string) =>
      cached(key, async () => {
        loads.push(key);
        return key;
      });
    await read('shared page');
    await read('reader 1');
    expect(await read('shared page')).toBe('shared page');
    await read('reader 2');
    // 'reader 1' was the least recently read: it went, the shared page stayed.
    await read('shared page');
    await read('reader 1');
    expect(loads).toEqual(['shared page', 'reader 1', 'reader 2', 'reader 1']);

    position = 2;
    await read('shared page');
    expect(loads.at(-1)).toBe('shared page');

    await expect(cached('failing', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await cached('failing', async () => 'read again')).toBe('read again');
  });
});
