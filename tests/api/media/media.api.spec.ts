/**
 * Media uploads end to end (docs/domain/media.md) with real files made by sharp: what is stored, what is refused
 * (and then that nothing is stored), serving, the avatar, a post that shows an upload, and the orphan sweep.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { MEDIA_REFERENCES, mediaCollection } from '../../../projections/media/media';
import { sweepOrphanMedia } from '../../../projections/media/sweep';
import { SESSION_COOKIE } from '../../../server/app';

let site: TestSite;
let directory: string;
let admin: Browser;
let member: Browser;
let memberId: string;
let other: Browser;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bhc-media-'));
  site = await startTestSite({ ...UNLIMITED_RATES, MEDIA_DIR: directory });
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  const m = await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' });
  member = m.browser;
  memberId = m.user.id;
  other = (await registerMember(site.url, { firstName: 'Otto', lastName: 'Other' })).browser;
});
afterAll(async () => {
  await site?.close();
  await rm(directory, { recursive: true, force: true });
});

/** POST /api/media as a browser's form would send it: multipart, from the site's own page. */
async function upload(browser: Browser | null, bytes: Buffer, name = 'file.bin', type = 'application/octet-stream', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  const cookie = browser?.cookie(SESSION_COOKIE);
  const response = await fetch(new URL('/api/media', site.url), {
    method: 'POST',
    body: form,
    headers: { origin: site.url, ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}) },
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function storedKeys() {
  const keys: string[] = [];
  for await (const key of site.services.media.list()) keys.push(key);
  return keys.sort();
}

const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });

/** A 600×400 JPEG turned a quarter by its EXIF orientation, with GPS and camera tags. */
const jpegWithGps = () =>
  picture(600, 400)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Zenith', Model: 'Trans-Oceanic', Copyright: 'Mona' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '41/1 52/1 5/1', GPSLongitudeRef: 'W', GPSLongitude: '87/1 37/1 40/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

describe('uploading images', () => {
  it('re-encodes a JPEG with GPS into the page sizes, turned upright, with no metadata left', async () => {
    const original = await jpegWithGps();
    const before = await sharp(original).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);

    const { status, body } = await upload(member, original, 'holiday.jpg', 'image/jpeg');
    expect(status).toBe(201);
    // Turned upright (400 wide, 600 high) and not upscaled to the feed's 800.
    expect(body).toEqual({ id: expect.any(String), url: `/media/${body.id}/feed.webp`, kind: 'image', width: 400, height: 600 });

    const keys = (await storedKeys()).filter((key) => key.startsWith(body.id));
    expect(keys).toEqual([
      `${body.id}/avatar-192.webp`,
      `${body.id}/avatar-96.webp`,
      `${body.id}/blog.webp`,
      `${body.id}/feed.jpg`,
      `${body.id}/feed.webp`,
    ]);
    for (const key of keys) {
      const served = await fetch(new URL(`/media/${key}`, site.url));
      expect(served.status).toBe(200);
      const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(metadata.exif, key).toBeUndefined();
      expect(metadata.icc, key).toBeUndefined();
      expect(metadata.orientation ?? 1, key).toBe(1);
    }
    const avatar = await sharp(
      Buffer.from(await (await fetch(new URL(`/media/${body.id}/avatar-96.webp`, site.url))).arrayBuffer()),
    ).metadata();
    expect([avatar.width, avatar.height, avatar.format]).toEqual([96, 96, 'webp']);

    const stored = await mediaCollection(site.services.store).findOne({ _id: body.id });
    expect(stored).toMatchObject({ ownerId: memberId, kind: 'image', contentType: 'image/jpeg', width: 400, height: 600, references: [] });
  });

  it('knows a PNG by its bytes, whatever its name and declared type, and keeps a PNG fallback', async () => {
    const png = await picture(1200, 300).png().toBuffer();
    const { status, body } = await upload(member, png, 'photo.jpg', 'image/jpeg');
    expect(status).toBe(201);
    expect(body).toMatchObject({ kind: 'image', width: 800, height: 200 });
    const fallback = await fetch(new URL(`/media/${body.id}/feed.png`, site.url));
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await fallback.arrayBuffer())).metadata()).format).toBe('png');
  });

  it('keeps audio as it is, with its duration', async () => {
    // 40 frames of MPEG-1 Layer III silence at 128 kb/s, 44.1 kHz: 1.04 s.
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    const mp3 = Buffer.concat(Array.from({ length: 40 }, () => frame));
    const { status, body } = await upload(member, mp3, 'aircheck.bin');
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(String), url: `/media/${body.id}/audio.mp3`, kind: 'audio', durationSeconds: 1 });
    const served = await fetch(new URL(body.url, site.url));
    expect(served.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await served.arrayBuffer()).equals(mp3)).toBe(true);

    const part = await fetch(new URL(body.url, site.url), { headers: { range: 'bytes=417-833' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 417-833/${mp3.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(mp3.subarray(417, 834))).toBe(true);
    expect((await fetch(new URL(body.url, site.url), { headers: { range: `bytes=${mp3.length}-` } })).status).toBe(416);
  });
});

describe('refusals store nothing', () => {
  it('refuses a file that is neither image nor audio, an image over 15 MB, a missing file, a broken body and a stranger', async () => {
    const keys = await storedKeys();
    const uploads = await mediaCollection(site.services.store).countDocuments({});

    const text = await upload(member, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'picture.png', 'image/png');
    expect(text.status).toBe(400);
    expect(text.body.message).toBe('This file is not one we accept: upload a JPEG, PNG, WebP or HEIC image, or MP3, M4A or OGG audio.');

    const huge = Buffer.concat([await picture(100, 100).jpeg().toBuffer(), Buffer.alloc(16 * 1024 * 1024)]);
    const tooLarge = await upload(member, huge, 'huge.jpg', 'image/jpeg');

    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toMatch(/^Images may be at most 15 MB/);

    const overAll = await upload(member, Buffer.alloc(51 * 1024 * 1024), 'huge.mp3', 'audio/mpeg');
    expect(overAll.status).toBe(413);

    const wrongField = await upload(member, await picture(10, 10).png().toBuffer(), 'a.png', 'image/png', 'photo');
    expect(wrongField.status).toBe(400);

    const anonymous = await upload(null, await picture(10, 10).png().toBuffer(), 'a.png', 'image/png');
    expect(anonymous.status).toBe(401);

    // A body that says multipart but is not (no boundary; no part at all): refused, never a 500.
    const cookie = member.cookie(SESSION_COOKIE)!;
    const send = (contentType: string) =>
      fetch(new URL('/api/media', site.url), {
        method: 'POST',
        body: '--fuzz--\r\n',
        headers: { origin: site.url, cookie: `${SESSION_COOKIE}=${cookie}`, 'content-type': contentType },
      });
    const broken = await send('multipart/form-data');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toBe('The upload could not be read. Please choose the file again.');
    expect((await send('multipart/form-data; boundary=fuzz')).status).toBe(400);

    expect(await storedKeys()).toEqual(keys);
    expect(await mediaCollection(site.services.store).countDocuments({})).toBe(uploads);
  });

  it('refuses audio whose bytes are not the sound its type says: an MP3 header followed by a page, or a page inside frames', async () => {
    const keys = await storedKeys();
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    const page = Buffer.from('<html><body><script>fetch("/api/me/export").then((r) => r.text()).then(alert)</script></body></html>');
    const id3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
    for (const [name, bytes] of [
      ['header then page', Buffer.concat([frame.subarray(0, 4), page])],
      ['one frame then page', Buffer.concat([frame, page, Buffer.alloc(4096)])],
      ['tag and frame then page', Buffer.concat([id3, frame, page])],
      ['frames then a script', Buffer.concat([...Array.from({ length: 40 }, () => frame), Buffer.from('<script>alert(1)</script>')])],
    ] as const) {
      const refused = await upload(member, bytes, 'aircheck.mp3', 'audio/mpeg');
      expect(refused.status, name).toBe(400);
      expect(refused.body.message, name).toBe(
        'This file is not audio we can play: its contents are not MP3, M4A or OGG sound. Export it again as MP3 and retry.',
      );
    }
    expect(await storedKeys()).toEqual(keys);
  });

  it('answers an upload it refuses while the body is still coming at once, and closes its connection', async () => {
    const url = new URL(site.url);
    /** A raw upload declaring `declared` bytes, sent on in 256 KB pieces until the server answers and closes. */
    const rawUpload = (declared: number, cookie: string | null) =>
      new Promise<{ status: string; answeredMs: number; closedMs: number; sent: number }>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname);
        const started = Date.now();
        let sent = 0;
        let answer = '';
        let answeredMs = -1;
        socket.on('data', (data) => {
          if (answeredMs < 0) answeredMs = Date.now() - started;
          answer += data.toString('latin1');
        });
        socket.on('error', () => undefined);
        const head = `--b\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`;
        socket.write(
          `POST /api/media HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${site.url}\r\n${cookie ? `Cookie: ${SESSION_COOKIE}=${cookie}\r\n` : ''}Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${declared}\r\n\r\n${head}`,
        );
        const pump = setInterval(() => {
          if (!socket.writable || sent >= declared) return;
          socket.write(Buffer.alloc(256 * 1024, 0x41));
          sent += 256 * 1024;
        }, 10);
        const bound = setTimeout(() => {
          socket.destroy();
          reject(new Error(`no answer and close within 10 s; answered: ${answer.slice(0, 100)}`));
        }, 10_000);
        socket.on('close', () => {
          clearInterval(pump);
          clearTimeout(bound);
          resolve({ status: answer.split('\r\n')[0]!, answeredMs, closedMs: Date.now() - started, sent });
        });
      });

    // A stranger's upload: 401 at once; the connection does not wait for the other 40 MB.
    const stranger = await rawUpload(40 * 1024 * 1024, null);
    expect(stranger.status).toBe('HTTP/1.1 401 Unauthorized');
    expect(stranger.answeredMs).toBeLessThan(2_000);
    expect(stranger.closedMs).toBeLessThan(3_000);
    expect(stranger.sent).toBeLessThan(40 * 1024 * 1024);

    // Declared larger than any upload: 413 before a byte of the file is read.
    const declared = await rawUpload(60 * 1024 * 1024, member.cookie(SESSION_COOKIE)!);
    expect(declared.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(declared.closedMs).toBeLessThan(3_000);
    expect(declared.sent).toBeLessThan(60 * 1024 * 1024);

    // Sent without a length (chunked), as fetch streams it: 413 once it passes 50 MB, not when the sender stops.
    let streamed = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (streamed > 80 * 1024 * 1024) return controller.close();
        const chunk =
          streamed === 0
            ? new TextEncoder().encode(`--b\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\n\r\n`)
            : new Uint8Array(1024 * 1024);
        streamed += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const started = Date.now();
    const refused = await fetch(new URL('/api/media', site.url), {
      method: 'POST',
      body: endless,
      duplex: 'half',
      headers: {
        origin: site.url,
        cookie: `${SESSION_COOKIE}=${member.cookie(SESSION_COOKIE)}`,
        'content-type': 'multipart/form-data; boundary=b',
      },
    } as RequestInit);
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).toBe('close');
    // Before the stream ends at 80 MB (an unfinished form then, which would be a 400).
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('refuses a picture of more than 50 megapixels before decoding it', async () => {
    const wide = await sharp({ create: { width: 10_000, height: 5_001, channels: 3, background: 'white' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const { status, body } = await upload(member, wide, 'wide.png', 'image/png');
    expect(status).toBe(413);
    expect(body.message).toMatch(/^Images may be at most 50 megapixels/);
  });
});

describe('serving', () => {
  it('serves files with immutable caching, an ETag, nosniff, and no way out of the store', async () => {
    const { body } = await upload(member, await picture(50, 50).png().toBuffer());
    const served = await fetch(new URL(body.url, site.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = served.headers.get('etag')!;
    expect((await fetch(new URL(body.url, site.url), { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(new URL(body.url, site.url), { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
    const head = await fetch(new URL(body.url, site.url), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), head.headers.get('cache-control')]).toEqual([
      200,
      'image/webp',
      'public, max-age=31536000, immutable',
    ]);

    expect((await fetch(new URL(`/media/${body.id}/feed.gif`, site.url))).status).toBe(400);
    expect((await fetch(new URL(`/media/${body.id}/..%2F..%2Fsession-secret`, site.url))).status).toBe(400);
    expect((await fetch(new URL(`/media/..%2F..%2F/feed.webp`, site.url))).status).toBe(400);
    expect((await fetch(new URL(`/media/00000000-0000-4000-8000-000000000000/feed.webp`, site.url))).status).toBe(404);
  });
});

describe('using uploads', () => {
  it('makes an own image the avatar, and refuses another member’s', async () => {
    const { body: mine } = await upload(member, await picture(300, 200).jpeg().toBuffer());
    const set = await member.put('/api/me/avatar', { mediaId: mine.id });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: memberId, profileImageUrl: `/media/${mine.id}/avatar-192.webp` });
    expect((await fetch(new URL(set.body.profileImageUrl, site.url))).status).toBe(200);
    expect(await mediaCollection(site.services.store).findOne({ _id: mine.id })).toMatchObject({
      references: [`avatar:${memberId}`],
      referenceCount: 1,
    });

    const refused = await other.put('/api/me/avatar', { mediaId: mine.id });
    expect(refused.status).toBe(403);
    expect((await new Browser(site.url).put('/api/me/avatar', { mediaId: mine.id })).status).toBe(401);
    expect((await member.put('/api/me/avatar', { mediaId: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);
  });

  it('shows an upload in a post, with its size, and refuses another member’s upload', async () => {
    const { body: photo } = await upload(member, await picture(1600, 1200).jpeg().toBuffer());
    const post = await member.post('/api/posts', { content: 'The old studio', mediaId: photo.id });
    expect(post.status).toBe(201);
    expect(post.body).toMatchObject({
      mediaType: 'image',
      mediaUrl: photo.url,
      media: { id: photo.id, url: `/media/${photo.id}/feed.webp`, kind: 'image', width: 800, height: 600 },
    });
    const seen = await admin.get('/api/admin/posts/pending');
    expect(seen.body.items.find((item: { id: string }) => item.id === post.body.id)).toMatchObject({ media: { id: photo.id, width: 800 } });

    const stolen = await other.post('/api/posts', { content: 'Look what I found', mediaId: photo.id });
    expect(stolen.status).toBe(403);
    const both = await member.post('/api/posts', { content: 'Both', mediaId: photo.id, mediaUrl: 'https://example.org/a.jpg' });
    expect(both.status).toBe(400);
    expect(both.body.fields).toEqual({ mediaId: 'Attach an upload or give a media URL, not both' });
    // The old way still works.
    const linked = await member.post('/api/posts', { content: 'A link', mediaType: 'image', mediaUrl: 'https://example.org/a.jpg' });
    expect(linked.body).toMatchObject({ mediaType: 'image', mediaUrl: 'https://example.org/a.jpg' });
    expect(linked.body.media).toBeUndefined();
  });
});

describe('events with an upload', () => {
  it('shows an upload with an event, and an edit without it takes it away', async () => {
    const { body: photo } = await upload(member, await picture(1000, 500).jpeg().toBuffer());
    const start = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const form = {
      title: 'Tower open day',
      eventType: 'reunion',
      location: 'Louisville',
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 3_600_000).toISOString(),
    };
    const created = await member.post('/api/events', { ...form, mediaId: photo.id });
    expect(created.status).toBe(201);
    expect(created.body.media).toEqual({ id: photo.id, url: `/media/${photo.id}/feed.webp`, kind: 'image', width: 800, height: 400 });
    expect(await mediaCollection(site.services.store).findOne({ _id: photo.id })).toMatchObject({
      references: [`event:${created.body.id}`],
    });
    expect((await other.post('/api/events', { ...form, mediaId: photo.id })).status).toBe(403);

    const edited = await member.put(`/api/events/${created.body.id}`, form);
    expect(edited.status).toBe(200);
    expect(edited.body.media).toBeUndefined();
    expect(await mediaCollection(site.services.store).findOne({ _id: photo.id })).toMatchObject({ references: [], referenceCount: 0 });
  });
});

describe('blog posts with an upload', () => {
  it('shows an upload at the blog’s size; an edit keeps it unless it names another or null', async () => {
    const { body: photo } = await upload(admin, await picture(2400, 1200).jpeg().toBuffer());
    const created = await admin.post('/api/blog', { title: 'The tower', content: '<p>Up it went.</p>', mediaId: photo.id });
    expect(created.status).toBe(201);
    expect(created.body.media).toEqual({ id: photo.id, url: `/media/${photo.id}/blog.webp`, kind: 'image', width: 1600, height: 800 });
    const id = created.body.id;
    const kept = await admin.patch(`/api/blog/${id}`, { title: 'The tower, again', content: '<p>Up it went.</p>' });
    expect(kept.body.media).toMatchObject({ id: photo.id });
    expect(await mediaCollection(site.services.store).findOne({ _id: photo.id })).toMatchObject({ references: [`blog:${id}`] });
    const removed = await admin.patch(`/api/blog/${id}`, { title: 'The tower, again', content: '<p>Up it went.</p>', mediaId: null });
    expect(removed.body.media).toBeUndefined();
    expect(await mediaCollection(site.services.store).findOne({ _id: photo.id })).toMatchObject({ references: [], referenceCount: 0 });
  });
});

describe('pictures inside a blog post’s text', () => {
  it('are referred to by the post while its text shows them, so the sweep leaves them; an edit or a delete lets them go', async () => {
    const { body: first } = await upload(admin, await picture(1200, 800).jpeg().toBuffer());
    const { body: second } = await upload(admin, await picture(1200, 800).jpeg().toBuffer());
    const img = (media: { id: string }) => `<p><img src="/media/${media.id}/blog.webp" width="1200" height="800" alt="x" /></p>`;
    const references = async (media: { id: string }) => (await mediaCollection(site.services.store).findOne({ _id: media.id }))!.references;
    const created = await admin.post('/api/blog', { title: 'Inline', content: `<p>a</p>${img(first)}${img(second)}` });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect([await references(first), await references(second)]).toEqual([[`blog:${id}:${first.id}`], [`blog:${id}:${second.id}`]]);
    await admin.patch(`/api/blog/${id}`, { title: 'Inline', excerpt: '', content: `<p>a</p>${img(second)}` });
    expect([await references(first), await references(second)]).toEqual([[], [`blog:${id}:${second.id}`]]);
    expect((await admin.delete(`/api/blog/${id}`)).status).toBe(204);
    expect(await references(second)).toEqual([]);

    // The same picture as the cover and in the text: two references, each let go on its own.
    const both = await admin.post('/api/blog', { title: 'Both', content: img(first), mediaId: first.id });
    const bothId = both.body.id as string;
    expect(await references(first)).toEqual([`blog:${bothId}`, `blog:${bothId}:${first.id}`]);
    await admin.patch(`/api/blog/${bothId}`, { title: 'Both', excerpt: '', content: img(first), mediaId: null });
    expect(await references(first)).toEqual([`blog:${bothId}:${first.id}`]);
    await admin.patch(`/api/blog/${bothId}`, { title: 'Both', excerpt: '', content: '<p>none</p>', mediaId: first.id });
    expect(await references(first)).toEqual([`blog:${bothId}`]);
  });

  it('lets an upload that is both the cover and in the text go when one edit, or deleting the post, takes it away', async () => {
    const { body: photo } = await upload(admin, await picture(1200, 800).jpeg().toBuffer());
    const img = `<p><img src="/media/${photo.id}/blog.webp" width="1200" height="800" alt="x" /></p>`;
    const uploadOf = () => mediaCollection(site.services.store).findOne({ _id: photo.id });
    const referencesTo = () => site.services.store.collection(MEDIA_REFERENCES).find({ mediaId: photo.id });
    // The cover first, the same picture put into the text by a later edit: the upload's document is written by two events.
    const created = await admin.post('/api/blog', { title: 'Cover and text', content: '<p>a</p>', mediaId: photo.id });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await admin.patch(`/api/blog/${id}`, { title: 'Cover and text', excerpt: '', content: `<p>a</p>${img}` });
    expect(await uploadOf()).toMatchObject({ references: [`blog:${id}`, `blog:${id}:${photo.id}`], referenceCount: 2 });

    const edited = await admin.patch(`/api/blog/${id}`, { title: 'Cover and text', excerpt: '', content: '<p>none</p>', mediaId: null });
    expect(edited.status).toBe(200);
    expect(edited.body.media).toBeUndefined();
    expect(await uploadOf()).toMatchObject({ references: [], referenceCount: 0 });
    expect(await referencesTo()).toEqual([]);

    // Deleting a post that holds it twice lets it go as well.
    const again = await admin.post('/api/blog', { title: 'Cover and text', content: '<p>a</p>', mediaId: photo.id });
    await admin.patch(`/api/blog/${again.body.id}`, { title: 'Cover and text', excerpt: '', content: `<p>a</p>${img}` });
    expect(await uploadOf()).toMatchObject({ referenceCount: 2 });
    expect((await admin.delete(`/api/blog/${again.body.id}`)).status).toBe(204);
    expect(await uploadOf()).toMatchObject({ references: [], referenceCount: 0 });
    expect(await referencesTo()).toEqual([]);
  });
});

describe('the orphan sweep', () => {
  it('removes an upload nothing refers to after the grace period, keeps a used one, and repeats harmlessly', async () => {
    const { body: orphan } = await upload(other, await picture(64, 64).png().toBuffer());
    const { body: used } = await upload(other, await picture(64, 64).png().toBuffer());
    expect((await other.post('/api/posts', { content: 'Kept', mediaId: used.id })).status).toBe(201);

    const { store, media: storage, handle } = site.services;
    const grace = 24 * 3600 * 1000;
    const at = (ms: number) => () => new Date(Date.now() + ms);
    // Not yet: still within its day.
    await sweepOrphanMedia({ store, storage, handle, graceMs: grace, now: at(grace - 60_000) });
    expect(await mediaCollection(store).findOne({ _id: orphan.id })).not.toBeNull();

    // Two sweeps at once, as two processes would run them.
    const removed = await Promise.all(
      [1, 2].map(() => sweepOrphanMedia({ store, storage, handle, graceMs: grace, now: at(grace + 60_000) })),
    );
    expect(removed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await mediaCollection(store).findOne({ _id: orphan.id })).toBeNull();
    const keys = await storedKeys();
    expect(keys.some((key) => key.startsWith(orphan.id))).toBe(false);
    expect(keys.some((key) => key.startsWith(used.id))).toBe(true);
    expect((await fetch(new URL(orphan.url, site.url))).status).toBe(404);
    expect((await fetch(new URL(used.url, site.url))).status).toBe(200);
    // The avatar and the post's photo of the earlier tests are kept too.
    expect(await mediaCollection(store).countDocuments({ referenceCount: { $gt: 0 } })).toBeGreaterThanOrEqual(3);
    expect(await sweepOrphanMedia({ store, storage, handle, graceMs: grace, now: at(grace + 60_000) })).toBe(0);
  });
});

describe('the upload limit', () => {
  it('counts uploads per member, not per address', async () => {
    const limited = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_MEDIA_MAX: '2', MEDIA_DIR: directory });
    try {
      const send = async (browser: Browser) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(await picture(20, 20).png().toBuffer())], { type: 'image/png' }), 'a.png');
        const response = await fetch(new URL('/api/media', limited.url), {
          method: 'POST',
          body: form,
          headers: { origin: limited.url, cookie: `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}` },
        });
        return { status: response.status, body: (await response.json()) as { message: string } };
      };
      const first = (await registerMember(limited.url)).browser;
      const second = (await registerMember(limited.url)).browser;
      expect((await send(first)).status).toBe(201);
      expect((await send(first)).status).toBe(201);
      const refused = await send(first);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
      // Another member from the same address still may.
      expect((await send(second)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
