/**
 * Embeds: what a widget costs the page that holds it (HTML, JavaScript and CSS
 * of the embed page, raw and gzip, plus the loader and each widget's data)
 * beside the main app's landing page; how long after an approval the post shows
 * in a widget (the PUT approve call until an anonymous socket has the notice and
 * a refetch of the widget's data contains the post) beside the approve call
 * alone; and a burst of widgets refetching at once after one notice, beside the
 * same burst against a bare route of the same app. Needs `npm run build`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { io } from 'socket.io-client';
import { CLIENT_DIR } from '../../server/http/client';
import { startTestSite } from '../support/site';
import { registerMember } from '../support/http';
import { WIDGETS, WIDGET_NAMES, readWidgetRequest, widgetPath } from '../../client/embed/widgets';
import { widgetSource } from '../../client/embed/data';
import { printTable, type Row } from './report';

const APPROVALS = 40;
const BURST = 200;

const gzip = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

/** A page and what it loads at once: its scripts, preloaded modules and stylesheets. */
function pageWeight(html: string) {
  const assets = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  const files = [Buffer.from(html), ...assets.map((file) => readFileSync(resolve(CLIENT_DIR, file)))];
  return {
    files: files.length,
    raw: files.reduce((sum, file) => sum + file.length, 0),
    gzip: files.reduce((sum, file) => sum + gzip(file), 0),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const kib = (bytes: number) => bytes / 1024;

export async function run() {
  const index = resolve(CLIENT_DIR, 'index.html');
  const embed = resolve(CLIENT_DIR, 'embed.html');
  if (!existsSync(index) || !existsSync(embed)) throw new Error('No built client: run "npm run build" first');
  const landing = pageWeight(readFileSync(index, 'utf8'));
  const widget = pageWeight(readFileSync(embed, 'utf8'));
  const loader = readFileSync(resolve(import.meta.dirname, '../../server/embeds/embed.js'));

  const site = await startTestSite({
    RATE_LIMIT_AUTH_MAX: '10000',
    RATE_LIMIT_POST_MAX: '100000',
    RATE_LIMIT_EVENT_MAX: '100000',
    LOG_LEVEL: 'error',
  });
  const socket = io(site.url, { path: '/socket.io', transports: ['websocket'] });
  try {
    const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
    const member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
    const text = 'The first licensed station in the state went on the air from a hotel ballroom, with a borrowed transmitter. '.repeat(3);
    for (let i = 0; i < 10; i++) {
      await admin.post('/api/posts', { content: `${text} ${i}`, tags: ['radio', 'tv'] });
      await admin.post('/api/events', {
        title: `Reunion ${i}`,
        description: text,
        eventType: 'reunion',
        startDate: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
        endDate: new Date(Date.now() + (i + 1) * 86_400_000 + 3_600_000).toISOString(),
      });
    }
    let postId = '';
    for (let i = 0; i < 5; i++)
      postId = (
        await admin.post('/api/blog', {
          title: `Story ${i}`,
          content: `<p>${text}</p>`,
          isPublished: true,
          tags: ['radio', 'tv', 'towers', 'people'],
        })
      ).body.id;

    const rows: Row[] = [
      {
        figure: `embed page HTML+JS+CSS (${widget.files} files)`,
        value: kib(widget.raw),
        unit: 'KiB raw',
        baseline: `landing page (${landing.files} files)`,
        baselineValue: kib(landing.raw),
      },
      {
        figure: 'embed page HTML+JS+CSS',
        value: kib(widget.gzip),
        unit: 'KiB gzip',
        baseline: 'landing page',
        baselineValue: kib(landing.gzip),
      },
      {
        figure: 'loader /embed.js',
        value: kib(gzip(loader)),
        unit: 'KiB gzip',
        baseline: 'landing page',
        baselineValue: kib(landing.gzip),
      },
    ];
    for (const name of WIDGET_NAMES) {
      const request = readWidgetRequest(widgetPath(name, postId), '')!;
      const data = Buffer.from(await (await fetch(new URL(widgetSource(request), site.url))).arrayBuffer());
      rows.push({
        figure: `${name}: page + its data (${WIDGETS[name].defaultLimit ?? 1} items)`,
        value: kib(widget.gzip + gzip(data)),
        unit: 'KiB gzip',
        baseline: 'landing page',
        baselineValue: kib(landing.gzip),
      });
    }
    console.log('Payload (HTML, JavaScript, CSS and data a widget loads):');
    printTable(rows);

    if (!socket.connected) await new Promise<void>((done) => socket.once('connect', () => done()));
    const heard = new Map<string, () => void>();
    socket.on('posts:changed', (notice: { id: string }) => heard.get(notice.id)?.());
    const feed = new URL(widgetSource(readWidgetRequest('/embed/compact', '')!), site.url);
    const shown: number[] = [];
    const approveOnly: number[] = [];
    for (let i = 0; i < APPROVALS; i++) {
      const id = (await member.post('/api/posts', { content: `Pending ${i}` })).body.id as string;
      const notice = new Promise<void>((done) => heard.set(id, done));
      const started = performance.now();
      const approved = admin.put(`/api/admin/posts/${id}/approve`).then(() => approveOnly.push(performance.now() - started));
      await notice;
      // What a widget does on the notice: refetch its data anonymously.
      const items = ((await (await fetch(feed)).json()) as { items: { id: string }[] }).items;
      if (!items.some((item) => item.id === id)) throw new Error('the approved post was not in the refetched feed');
      shown.push(performance.now() - started);
      await approved;
      heard.delete(id);
    }
    console.log(`\nApproval to appearance in a widget (${APPROVALS} runs; notice to an anonymous socket, then the widget's refetch):`);
    printTable([
      {
        figure: 'approve → shown in widget, p50 (closed loop: one approval at a time)',
        value: percentile(shown, 50),
        unit: 'ms',
        baseline: 'the approve call alone, p50',
        baselineValue: percentile(approveOnly, 50),
      },
      {
        figure: 'approve → shown in widget, p95 (closed loop: one approval at a time)',
        value: percentile(shown, 95),
        unit: 'ms',
        baseline: 'the approve call alone, p95',
        baselineValue: percentile(approveOnly, 95),
      },
    ]);

    // Every widget on every site refetches at the same moment after one notice.
    const burst = async (url: URL) => {
      const times: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: BURST }, async () => {
          const begun = performance.now();
          await (await fetch(url)).arrayBuffer();
          times.push(performance.now() - begun);
        }),
      );
      return { total: performance.now() - started, p95: percentile(times, 95) };
    };
    await burst(feed);
    const widgets = await burst(feed);
    const bare = await burst(new URL('/healthz', site.url));
    console.log(`\n${BURST} widgets refetching at once after one notice:`);
    printTable([
      {
        figure: `${BURST} feed refetches, all answered (open loop: all sent at once)`,
        value: widgets.total,
        unit: 'ms',
        baseline: `${BURST} calls of a bare route (/healthz)`,
        baselineValue: bare.total,
      },
      {
        figure: `${BURST} feed refetches, p95 each (open loop: all sent at once)`,
        value: widgets.p95,
        unit: 'ms',
        baseline: 'bare route, p95 each',
        baselineValue: bare.p95,
      },
    ]);
  } finally {
    socket.disconnect();
    await site.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
