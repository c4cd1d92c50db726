/**
 * Media: uploads per second of a 4000×3000 JPEG (a 12-megapixel camera photo) through POST /api/media, beside
 * sharp re-encoding the same file into the same five files in this process (no HTTP, no storage, no event), in the
 * same run; and a served file's requests per second (autocannon in its own process, 50 connections, 5 s) beside
 * the same bytes streamed from disk by a bare fastify route.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import sharp from 'sharp';
import { startTestSite, UNLIMITED_RATES } from '../support/site';
import { registerMember } from '../support/http';
import { SESSION_COOKIE } from '../../server/app';
import { printTable, rate, type Row } from './report';

const UPLOADS = 12;
const CONNECTIONS = 50;
const SECONDS = 5;
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

async function requestsPerSecond(url: string): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [autocannon, '--json', '-c', String(CONNECTIONS), '-d', String(SECONDS), url],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** A photo-like 4000×3000 JPEG: noise softened by a blur, so it compresses as a photo does (a few MB), not as a flat colour. */
const photo = () =>
  sharp({ create: { width: 4000, height: 3000, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .blur(1.2)
    .jpeg({ quality: 88 })
    .toBuffer();

/** The upload's five files by sharp alone, each pipeline from the original (what the upload did at first). */
async function encodeDirectly(bytes: Buffer) {
  const source = () => sharp(bytes).rotate();
  await Promise.all([
    source().resize({ width: 96, height: 96, fit: 'cover' }).webp({ quality: 80 }).toBuffer(),
    source().resize({ width: 192, height: 192, fit: 'cover' }).webp({ quality: 80 }).toBuffer(),
    source().resize({ width: 800 }).webp({ quality: 80 }).toBuffer(),
    source().resize({ width: 1600 }).webp({ quality: 80 }).toBuffer(),
    source().resize({ width: 800 }).jpeg({ quality: 82, mozjpeg: true }).toBuffer(),
  ]);
}

export async function run() {
  const directory = await mkdtemp(join(tmpdir(), 'bhc-media-bench-'));
  const site = await startTestSite({ ...UNLIMITED_RATES, LOG_LEVEL: 'error', MEDIA_DIR: directory });
  const bare = Fastify();
  try {
    const bytes = await photo();
    const { browser } = await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' });
    const cookie = `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}`;
    let served = '';
    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
      const response = await fetch(new URL('/api/media', site.url), { method: 'POST', body: form, headers: { origin: site.url, cookie } });
      if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
      served = ((await response.json()) as { url: string }).url;
    };
    await upload();
    await encodeDirectly(bytes);
    const direct = await rate(UPLOADS, async () => {
      for (let i = 0; i < UPLOADS; i++) await encodeDirectly(bytes);
    });
    const single = await rate(UPLOADS, async () => {
      for (let i = 0; i < UPLOADS; i++) await sharp(bytes).rotate().resize({ width: 800 }).webp({ quality: 80 }).toBuffer();
    });
    const uploads = await rate(UPLOADS, async () => {
      for (let i = 0; i < UPLOADS; i++) await upload();
    });

    // The same bytes as the served file, from disk, by a route that does nothing else.
    const copy = join(directory, 'bare.webp');
    await writeFile(copy, Buffer.from(await (await fetch(new URL(served, site.url))).arrayBuffer()));
    bare.get('/bare.webp', (_request, reply) =>
      reply.type('image/webp').header('cache-control', 'public, max-age=31536000, immutable').send(createReadStream(copy)),
    );
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareRate = await requestsPerSecond(`${bareUrl}/bare.webp`);
    const servedRate = await requestsPerSecond(`${site.url}${served}`);

    console.log(
      `Media: a ${(bytes.length / 1024 / 1024).toFixed(1)} MB 4000×3000 JPEG uploaded ${UPLOADS} times one after another; the feed-size WebP served by autocannon, ${CONNECTIONS} connections, ${SECONDS} s:`,
    );
    const rows: Row[] = [
      {
        figure: 'uploads through POST /api/media',
        value: uploads,
        unit: 'uploads/s',
        baseline: 'sharp alone, one resize to an 800 wide WebP',
        baselineValue: single,
      },
      {
        figure: 'uploads through POST /api/media',
        value: uploads,
        unit: 'uploads/s',
        baseline: 'sharp alone, the five files each from the original',
        baselineValue: direct,
      },
      {
        figure: `served file (GET ${served.replace(/[0-9a-f-]{36}/, '{id}')})`,
        value: servedRate,
        unit: 'req/s',
        baseline: 'the same bytes from a bare fastify route',
        baselineValue: bareRate,
      },
    ];
    printTable(rows);
  } finally {
    await bare.close();
    await site.close();
    await rm(directory, { recursive: true, force: true });
  }
}
