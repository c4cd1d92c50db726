/**
 * The clients of the socket fan-out benchmark, in a process of their own (tests/bench/sockets.bench.ts starts two):
 * `count` anonymous sockets, as widgets are, spread over the given site addresses, each noting when the
 * `posts:changed` notice of every post arrives. Prints one JSON line when all are connected; then, given the likes
 * on stdin (one JSON line: each liked post and the time its like was due), waits for the last notices (until all
 * came, or none came for 5 s, at most a minute), then prints what each notice took from its like's due time, how
 * many never came and how many came that no like explains.
 *
 * Each socket is a bare WebSocket speaking socket.io's protocol (engine.io 4 over WebSocket only: the open packet,
 * the namespace's connect, pings answered, events read), not socket.io-client: the clients share two cores with the
 * site, and socket.io-client's cost per message (about 28 µs on 2026-11-29's machine, 50,000 messages a second at
 * 5,000 sockets) made the clients, not the site, the bottleneck the benchmark measured.
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const [urls = '', count = '0'] = process.argv.slice(2);
const sites = urls.split(',');
const QUIET_MS = 5_000;
const MAX_WAIT_MS = 60_000;
const NOTICE = '42["posts:changed",';
/** Per socket: when each post's notice first arrived, and how many notices repeated one already heard. */
const arrivals: { heard: Map<string, number>; repeated: number }[] = [];
const sockets: WebSocket[] = [];

/** One anonymous socket.io socket on the default namespace; resolves once the server accepted it. */
function connect(site: string, mine: (typeof arrivals)[number]): Promise<WebSocket> {
  const url = `${site.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
  const socket = new WebSocket(url, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith(NOTICE)) {
        const { id } = JSON.parse(text.slice(NOTICE.length, -1)) as { id: string };
        if (mine.heard.has(id)) mine.repeated += 1;
        else mine.heard.set(id, Date.now());
      } else if (text === '2') socket.send('3');
      else if (text.startsWith('0')) socket.send('40');
      else if (text.startsWith('40')) resolve(socket);
      else if (text.startsWith('44')) reject(new Error(`refused: ${text}`));
    });
  });
}

// Connecting in small batches: thousands of handshakes at once time out on two cores.
for (let i = 0; i < Number(count); i += 100) {
  const batch = Array.from({ length: Math.min(100, Number(count) - i) }, (_, j) => {
    const mine = { heard: new Map<string, number>(), repeated: 0 };
    arrivals.push(mine);
    return connect(sites[(i + j) % sites.length]!, mine);
  });
  sockets.push(...(await Promise.all(batch)));
}
console.log(JSON.stringify({ connected: sockets.filter((s) => s.readyState === WebSocket.OPEN).length }));

for await (const line of createInterface({ input: process.stdin })) {
  const { likes } = JSON.parse(line) as {
    likes: { post: string; dueAt: number }[];
  };
  const dueAt = new Map(likes.map((like) => [like.post, like.dueAt]));
  // A notice is lost only once none has come for QUIET_MS (late ones are counted late, not lost), within MAX_WAIT_MS.
  const heardAll = () => arrivals.every(({ heard }) => [...dueAt.keys()].every((post) => heard.has(post)));
  const total = () => arrivals.reduce((sum, { heard }) => sum + heard.size, 0);
  const waitStarted = Date.now();
  let last = { total: total(), at: Date.now() };
  while (!heardAll() && Date.now() - last.at < QUIET_MS && Date.now() - waitStarted < MAX_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (total() !== last.total) last = { total: total(), at: Date.now() };
  }
  const latencies: number[] = [];
  let lost = 0;
  let unexpected = 0;
  for (const { heard, repeated } of arrivals) {
    unexpected += repeated;
    for (const [post, at] of heard) {
      const due = dueAt.get(post);
      if (due === undefined) unexpected += 1;
      else latencies.push(at - due);
    }
    for (const post of dueAt.keys()) if (!heard.has(post)) lost += 1;
  }
  console.log(JSON.stringify({ latencies, lost, unexpected }));
  for (const socket of sockets) socket.close();
  break;
}
