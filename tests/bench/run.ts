/**
 * `npm run bench`: every benchmark, one after another (they share two cores).
 * Each prints its figures beside a baseline measured in the same run.
 * `npm run bench -- event-store` runs only the benchmarks whose name matches.
 */
const benches: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  'event-store': () => import('./event-store.bench'),
  'document-store': () => import('./document-store.bench'),
  'client-bundle': () => import('./client-bundle.bench'),
  feed: () => import('./feed.bench'),
  events: () => import('./events.bench'),
  blog: () => import('./blog.bench'),
  comments: () => import('./comments.bench'),
  mail: () => import('./mail.bench'),
  embeds: () => import('./embeds.bench'),
  sockets: () => import('./sockets.bench'),
  http: () => import('./http.bench'),
  media: () => import('./media.bench'),
  'personal-data': () => import('./personal-data.bench'),
  replay: () => import('./replay.bench'),
  lighthouse: () => import('./lighthouse.bench'),
};

const filter = process.argv[2];
for (const [name, load] of Object.entries(benches)) {
  if (filter && !name.includes(filter)) continue;
  console.log(`\n## ${name}\n`);
  const { run } = await load();
  await run();
}
export {};
