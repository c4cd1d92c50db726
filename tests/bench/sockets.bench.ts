/**
 * Socket fan-out, open loop: anonymous sockets (as widgets are) in two other processes, and a member liking a post
 * at a steady 10 a second for 10 s, each like due at its own time whether or not the ones before have answered
 * (a different post each time, so no like waits for another's stream), each a `posts:changed` notice to every
 * socket. Every latency is counted from the time the like was due, so a backlog shows (no coordinated omission).
 * Figures: the like's answer p50/p99 (the answer must show the like) beside the same likes with no socket
 * connected, the notice p50/p99 at the sockets beside the like's answer in the same run, notices lost, and the
 * same 5,000 sockets spread over two realtime processes beside one.
 * The site's roles run as production runs them apart: the sockets are served by realtime processes
 * (`main/main.ts` with ROLES=realtime, children of this one, fed the notices through Redis), so the fan-out has
 * event loops of its own; the API, the projections and the workers run in this Node process (startTestSite,
 * ROLES=api,projections,workers), whose event loop delay is the API's. The CPU time each realtime process used
 * during a run is printed beside it: near the run's length, that process was saturated.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { registerMember, type Browser } from '../support/http';
import { printTable, type Row } from './report';
import { childProcesses, freePort } from '../support/processes';

const LIKES_PER_SECOND = 10;
const SECONDS = 10;
const LIKES = LIKES_PER_SECOND * SECONDS;
const CLIENT_PROCESSES = 2;
/** How long the likes still unanswered after the last one was due may take before the run gives up on them. */
const ANSWER_GRACE_MS = 30_000;
const GOALS = { answerP99: 100, noticeP99: 150 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startClients(urls: string[], count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/socket-clients.ts', urls.join(','), String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async <T>() => JSON.parse(((await lines.next()).value as string | undefined) ?? 'null') as T;
  return {
    ready: () => next<{ connected: number }>(),
    async report(likes: { post: string; dueAt: number }[]) {
      child.stdin.write(`${JSON.stringify({ likes })}\n`);
      return next<{ latencies: number[]; lost: number; unexpected: number }>();
    },
    stop: () => child.kill(),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** The posts a run likes, approved (the admin's are at once), made before any socket connects so no notice of theirs is heard. */
async function freshPosts(admin: Browser, label: string) {
  const posts: string[] = [];
  for (let i = 0; i < LIKES; i++) {
    const { status, body } = await admin.post('/api/posts', { content: `${label}: story ${i}` });
    if (status !== 201) throw new Error(`A post to like was answered ${status}: ${JSON.stringify(body)}`);
    posts.push(body.id as string);
  }
  return posts;
}

/**
 * `clients` sockets spread over the sites (none for the baseline), then one like due every 1/LIKES_PER_SECOND s,
 * sent at its time without waiting for earlier answers: how long the answers and the notices took from those times.
 */
async function fanOut(realtime: RealtimeProcess[], clients: number, admin: Browser, liker: Browser) {
  const posts = await freshPosts(admin, `Fan-out to ${clients} sockets`);
  const processes =
    clients > 0
      ? Array.from({ length: CLIENT_PROCESSES }, () =>
          startClients(
            realtime.map((one) => one.url),
            clients / CLIENT_PROCESSES,
          ),
        )
      : [];
  try {
    const connected = (await Promise.all(processes.map((p) => p.ready()))).reduce((sum, r) => sum + r.connected, 0);
    if (connected !== clients) throw new Error(`only ${connected} of ${clients} sockets connected`);
    // The API runs in this process: how late its event loop ran tells a saturated process from a slow wait.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const cpuBefore = realtime.map((one) => cpuSeconds(one.child));
    const runStarted = Date.now();
    const likes: { post: string; dueAt: number }[] = [];
    const answers: number[] = [];
    let notShown = 0;
    let failed = 0;
    const inFlight: Promise<void>[] = [];
    const started = Date.now() + 100;
    for (let i = 0; i < LIKES; i++) {
      const dueAt = started + (i * 1000) / LIKES_PER_SECOND;
      if (dueAt > Date.now()) await sleep(dueAt - Date.now());
      likes.push({ post: posts[i]!, dueAt });
      inFlight.push(
        liker.put(`/api/posts/${posts[i]}/like`).then(
          (response) => {
            answers.push(Date.now() - dueAt);
            if (response.status !== 200) failed += 1;
            // Read-your-writes: the answer already holds the like.
            else if (response.body.likedByMe !== true) notShown += 1;
          },
          () => void (failed += 1),
        ),
      );
    }
    await Promise.race([Promise.all(inFlight), sleep(ANSWER_GRACE_MS)]);
    const unanswered = LIKES - answers.length;
    loopDelay.disable();
    // The client processes wait for the last notices themselves (tests/bench/socket-clients.ts).
    const reports = await Promise.all(processes.map((p) => p.report(likes)));
    // Up to the last notice heard (the clients' quiet wait of 5 s at the end is left out when all came).
    const runSeconds = (Date.now() - runStarted) / 1000;
    const realtimeCpu = realtime.map((one, i) => cpuSeconds(one.child) - cpuBefore[i]!);
    const notices = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    return {
      noticeP50: percentile(notices, 50),
      noticeP99: percentile(notices, 99),
      lost: reports.reduce((sum, r) => sum + r.lost, 0),
      // Notices no like of this run explains (another post's, or one heard twice): left out of the figures, and said.
      unexpected: reports.reduce((sum, r) => sum + r.unexpected, 0),
      sent: LIKES * clients,
      answerP50: percentile(answers, 50),
      answerP99: percentile(answers, 99),
      failed: failed + unanswered,
      notShown,
      loopDelayP99: loopDelay.percentile(99) / 1e6,
      loopDelayMax: loopDelay.max / 1e6,
      realtimeCpu,
      runSeconds,
    };
  } finally {
    for (const p of processes) p.stop();
  }
}

interface RealtimeProcess {
  url: string;
  child: ChildProcess;
}

/** CPU seconds (user and system) a child process has used so far, from /proc (Linux). */
function cpuSeconds(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are the 14th and 15th fields of the whole line, in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A realtime role of the site in a process of its own (main/main.ts, ROLES=realtime), ready to take sockets. */
async function startRealtime(processes: ReturnType<typeof childProcesses>, site: TestSite): Promise<RealtimeProcess> {
  const { config } = site.services;
  const port = await freePort();
  const child = processes.start('main/main.ts', {
    NODE_ENV: 'test',
    ROLES: 'realtime',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: site.url,
    DATABASE_URL: config.databaseUrl,
    REDIS_PREFIX: config.redisPrefix,
    SESSION_SECRET: config.sessionSecret,
    SMTP_SINK_PORT: '0',
    LOG_LEVEL: 'error',
  });
  const url = `http://127.0.0.1:${port}`;
  await processes.until(
    () =>
      fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ),
    240_000,
    'a realtime process',
  );
  return { url, child };
}

export async function run() {
  // The API, projections and workers here; no socket is served by this process.
  const site = await startTestSite({ ...UNLIMITED_RATES, LOG_LEVEL: 'error', ROLES: 'api,projections,workers' });
  const processes = childProcesses();
  try {
    const [one, two] = await Promise.all([startRealtime(processes, site), startRealtime(processes, site)]);
    const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
    const liker = (await registerMember(site.url)).browser;
    const alone = await fanOut([], 0, admin, liker);
    const rows: Row[] = [];
    const lines: string[] = [];
    const results: Record<string, Awaited<ReturnType<typeof fanOut>>> = {};
    for (const [name, realtime, clients] of [
      ['2,000 sockets, one realtime process', [one!], 2000],
      ['5,000 sockets, one realtime process', [one!], 5000],
      ['5,000 sockets, two realtime processes', [one!, two!], 5000],
    ] as const) {
      const result = await fanOut([...realtime], clients, admin, liker);
      results[name] = result;
      rows.push({
        figure: `${name}: like answer p50 (open loop)`,
        value: result.answerP50,
        unit: 'ms',
        baseline: 'no socket, p50',
        baselineValue: alone.answerP50,
      });
      rows.push({
        figure: `${name}: like answer p99 (open loop)`,
        value: result.answerP99,
        unit: 'ms',
        baseline: 'no socket, p99',
        baselineValue: alone.answerP99,
      });
      rows.push({
        figure: `${name}: notice p50 (open loop)`,
        value: result.noticeP50,
        unit: 'ms',
        baseline: 'like answer p50, same run',
        baselineValue: result.answerP50,
      });
      rows.push({
        figure: `${name}: notice p99 (open loop)`,
        value: result.noticeP99,
        unit: 'ms',
        baseline: 'like answer p99, same run',
        baselineValue: result.answerP99,
      });
      lines.push(
        `${name}: ${result.lost.toLocaleString('en-US')} of ${result.sent.toLocaleString('en-US')} notices lost, ${result.unexpected.toLocaleString('en-US')} unexpected; ${result.failed} of ${LIKES} likes failed or unanswered, ${result.notShown} answers without their like; the API process's event loop late by p99 ${Math.round(result.loopDelayP99)} ms, max ${Math.round(result.loopDelayMax)} ms; CPU of the realtime process${result.realtimeCpu.length > 1 ? 'es' : ''}: ${result.realtimeCpu.map((cpu) => `${cpu.toFixed(1)} s`).join(' and ')} in ${result.runSeconds.toFixed(1)} s`,
      );
    }
    const single = results['5,000 sockets, one realtime process']!;
    const pair = results['5,000 sockets, two realtime processes']!;
    rows.push({
      figure: '5,000 sockets, two realtime processes: notice p99 (open loop)',
      value: pair.noticeP99,
      unit: 'ms',
      baseline: 'one realtime process',
      baselineValue: single.noticeP99,
    });
    console.log(
      `Socket fan-out, open loop: a like due every ${1000 / LIKES_PER_SECOND} ms for ${SECONDS} s (latency from the time it was due), sockets in ${CLIENT_PROCESSES} other processes:`,
    );
    printTable(rows);
    lines.push(
      `no socket: ${alone.failed} of ${LIKES} likes failed or unanswered, ${alone.notShown} answers without their like; the API process's event loop late by p99 ${Math.round(alone.loopDelayP99)} ms, max ${Math.round(alone.loopDelayMax)} ms`,
    );
    console.log(lines.join('\n'));
    const met = single.answerP99 <= GOALS.answerP99 && single.noticeP99 <= GOALS.noticeP99 && single.lost === 0;
    console.log(
      `Goal (5,000 sockets, one realtime process): like answer p99 ≤ ${GOALS.answerP99} ms, notice p99 ≤ ${GOALS.noticeP99} ms, 0 lost: ${met ? 'met' : 'not met'} (${Math.round(single.answerP99)} ms, ${Math.round(single.noticeP99)} ms, ${single.lost} lost)`,
    );
  } finally {
    await processes.stopAll('SIGTERM');
    await site.close();
  }
}
