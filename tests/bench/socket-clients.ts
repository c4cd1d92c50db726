/**
 * The clients of the socket fan-out benchmark, in a process of their own (tests/bench/sockets.bench.ts starts two):
 * `count` anonymous sockets, as widgets are, spread over the given site addresses, each noting when every
 * `posts:changed` notice arrives. Prints one JSON line when all are connected; then, given the send times of the
 * likes on stdin (one JSON line), prints what each notice took and how many never came.
 */
import { createInterface } from 'node:readline';
import { io, type Socket } from 'socket.io-client';

const [urls = '', count = '0'] = process.argv.slice(2);
const sites = urls.split(',');
const sockets: Socket[] = [];
const arrivals: number[][] = [];

for (let i = 0; i < Number(count); i++) {
  const heard: number[] = [];
  arrivals.push(heard);
  const socket = io(sites[i % sites.length], { path: '/socket.io', transports: ['websocket'], reconnection: false });
  socket.on('posts:changed', () => heard.push(Date.now()));
  sockets.push(socket);
  // Connecting in small batches: thousands of handshakes at once time out on two cores.
  if (i % 100 === 99) await Promise.all(sockets.slice(-100).map((s) => (s.connected ? null : new Promise<void>((done) => s.once('connect', () => done())))));
}
await Promise.all(sockets.map((s) => (s.connected ? null : new Promise<void>((done) => s.once('connect', () => done())))));
console.log(JSON.stringify({ connected: sockets.filter((s) => s.connected).length }));

for await (const line of createInterface({ input: process.stdin })) {
  const { sentAt } = JSON.parse(line) as { sentAt: number[] };
  const latencies: number[] = [];
  let lost = 0;
  let unexpected = 0;
  for (const heard of arrivals) {
    // Notices of one post arrive in the order the likes were sent: the k-th is the k-th like's.
    lost += Math.max(0, sentAt.length - heard.length);
    unexpected += Math.max(0, heard.length - sentAt.length);
    heard.slice(0, sentAt.length).forEach((at, k) => latencies.push(at - sentAt[k]!));
  }
  console.log(JSON.stringify({ latencies, lost, unexpected }));
  for (const socket of sockets) socket.disconnect();
  break;
}
