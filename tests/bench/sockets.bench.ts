/**
 * Socket fan-out: anonymous sockets (as widgets are) in two other processes, a member liking and unliking one post
 * 10 times a second for 10 s, each like or unlike a `posts:changed` notice to every socket. Figures: how long from
 * sending the like until a socket has its notice (p50, p99) beside the like call alone in the same run, notices
 * lost, and the same 5,000 sockets spread over two API processes (notices cross between them through Redis) beside
 * one process.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { registerMember } from '../support/http';
import { printTable, type Row } from './report';

const NOTICES_PER_SECOND = 10;
const SECONDS = 10;
const CLIENT_PROCESSES = 2;

function startClients(urls: string[], count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/socket-clients.ts', urls.join(','), String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async <T>() => JSON.parse(((await lines.next()).value as string | undefined) ?? 'null') as T;
  return {
    ready: () => next<{ connected: number }>(),
    async report(sentAt: number[]) {
      child.stdin.write(`${JSON.stringify({ sentAt })}\n`);
      const result = await next<{ latencies: number[]; lost: number; unexpected: number }>();
      child.kill();
      // More notices than likes would pair each with the wrong like: the figures would mean nothing.
      if (result.unexpected > 0) throw new Error(`${result.unexpected} notices more than the likes sent`);
      return result;
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** `clients` sockets spread over the sites, a like or unlike every 100 ms: what the notices took, and the calls. */
async function fanOut(sites: TestSite[], clients: number) {
  const liker = (await registerMember(sites[0]!.url)).browser;
  const post = (await liker.post('/api/posts', { content: `Fan-out to ${clients} sockets` })).body.id as string;
  // A member's post waits for moderation; the first account (the admin) approves it.
  await admins.get(sites[0]!)!.put(`/api/admin/posts/${post}/approve`);
  const processes = Array.from({ length: CLIENT_PROCESSES }, () => startClients(sites.map((site) => site.url), clients / CLIENT_PROCESSES));
  const connected = (await Promise.all(processes.map((p) => p.ready()))).reduce((sum, r) => sum + r.connected, 0);
  if (connected !== clients) throw new Error(`only ${connected} of ${clients} sockets connected`);
  const sentAt: number[] = [];
  const calls: number[] = [];
  const started = Date.now();
  for (let i = 0; i < NOTICES_PER_SECOND * SECONDS; i++) {
    const due = started + (i * 1000) / NOTICES_PER_SECOND;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    sentAt.push(Date.now());
    const response = i % 2 === 0 ? await liker.put(`/api/posts/${post}/like`) : await liker.delete(`/api/posts/${post}/like`);
    if (response.status !== 200) throw new Error(`like answered ${response.status}`);
    calls.push(Date.now() - sentAt.at(-1)!);
  }
  // The last notices' time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const reports = await Promise.all(processes.map((p) => p.report(sentAt)));
  const latencies = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
  calls.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), lost: reports.reduce((sum, r) => sum + r.lost, 0), sent: sentAt.length * clients, callP50: percentile(calls, 50), callP99: percentile(calls, 99) };
}

const admins = new Map<TestSite, Awaited<ReturnType<typeof registerMember>>['browser']>();

export async function run() {
  const site = await startTestSite({ ...UNLIMITED_RATES, LOG_LEVEL: 'error' });
  const second = await startTestSite({ ...UNLIMITED_RATES, LOG_LEVEL: 'error' }, site);
  try {
    admins.set(site, (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser);
    const rows: Row[] = [];
    const lostRows: string[] = [];
    const results: Record<string, Awaited<ReturnType<typeof fanOut>>> = {};
    for (const [name, sites, clients] of [
      ['2,000 sockets, one API process', [site], 2000],
      ['5,000 sockets, one API process', [site], 5000],
      ['5,000 sockets, two API processes', [site, second], 5000],
    ] as const) {
      const result = await fanOut([...sites], clients);
      results[name] = result;
      rows.push({ figure: `${name}: notice p50`, value: result.p50, unit: 'ms', baseline: 'the like call alone, p50', baselineValue: result.callP50 });
      rows.push({ figure: `${name}: notice p99`, value: result.p99, unit: 'ms', baseline: 'the like call alone, p99', baselineValue: result.callP99 });
      lostRows.push(`${name}: ${result.lost.toLocaleString('en-US')} of ${result.sent.toLocaleString('en-US')} notices lost`);
    }
    const one = results['5,000 sockets, one API process']!;
    const two = results['5,000 sockets, two API processes']!;
    rows.push({ figure: '5,000 sockets, two API processes: notice p99', value: two.p99, unit: 'ms', baseline: 'one API process', baselineValue: one.p99 });
    console.log(`Socket fan-out, ${NOTICES_PER_SECOND} likes or unlikes a second for ${SECONDS} s, sockets in ${CLIENT_PROCESSES} other processes:`);
    printTable(rows);
    console.log(lostRows.join('\n'));
  } finally {
    await second.close();
    await site.close();
  }
}
