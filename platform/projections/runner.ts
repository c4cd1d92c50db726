/**
 * The projection runner (docs/architecture.md#the-read-side): one reader of the log feeds every projection in pages,
 * and each projection keeps its own checkpoint.
 *
 * - **Pages.** Events are read as they come: a page is what the log has ready (up to PAGE_EVENTS), so a replay moves in
 *   big pages and a live event in a page of its own. Each projection applies a page as one unit (platform/projections/
 *   page.ts): its documents folded in memory, each written once, its checkpoint moved once; on PostgreSQL in one
 *   transaction, so a crash never applies an event twice nor skips one. A projection that touches nothing in a page
 *   opens no transaction; its checkpoint moves in memory and is stored now and then.
 * - **Failures.** A page that fails for a passing reason (a lost connection, a store restarting) is tried again with
 *   backoff, for as long as it takes. A page that fails on its own merits is applied again event by event, the events
 *   before the failing one are kept, and that projection stops there, alone and visibly (its checkpoint says so); the
 *   others go on. A subscription that fails or ends is made again from where the pages got to.
 * - **Rebuilds while serving.** A projection is rebuilt beside its live collections (`<collection>__rebuild`, with a
 *   checkpoint of its own), from the start of the log, while the live one keeps serving and applying new events. Once
 *   the rebuild has caught up, the live projections pause between two pages, the rebuild takes the last events, and
 *   its collections take the place of the live ones in one transaction with the checkpoint. A rebuild is asked for
 *   (projection_rebuilds) by `npm run projections:rebuild`, and starts by itself for a projection whose version
 *   changed or that is new to a log that already has events.
 *
 * Checkpoints record which event store they count in (EventStore.identity): a projection whose checkpoint was written
 * against another store does not apply events there, and says to rebuild it.
 */
import type { Collection, Document, DocumentStore, Transaction } from '../document-store/port';
import { DuplicateKeyError } from '../document-store/port';
import type { EventStore, RecordedEvent } from '../event-store/port';
import { namedIfSlow, type Logger } from '../logger';
import type { ChangeNotice } from '../../shared/socket-messages';
import { Memory, openPage } from './page';
import { isTransient } from './failures';
import {
  CHECKPOINTS,
  REBUILD_SUFFIX,
  REBUILDS,
  type ProjectionCheckpoint,
  type ProjectionProgress,
  type RebuildRequest,
  type RunnerSummary,
} from './progress';

/** Waits before subscribing again: 250 ms after the first failure in a row, doubling up to 10 s. */
export const resubscribeDelayMs = (failuresInARow: number) => Math.min(250 * 2 ** (failuresInARow - 1), 10_000);

/** A subscription that has run this long since it was made again counts as recovered, events or not. */
const RECOVERED_AFTER_MS = 3_000;
/**
 * The largest page, unless the runner is given another (PROJECTION_PAGE_EVENTS): what the log has ready, up to this
 * many events. A replay's pages are this long: the longer, the fewer times a document changed again and again is
 * written, at the cost of the memory a page holds (a cold replay of 100,000 events, against pages of 10,000: PostgreSQL
 * 27% less busy, 159 MB of WAL instead of 206, 8–13% faster, 90 MB more memory at the peak; against 2,000, pages of
 * 10,000 had made PostgreSQL 10–15% less busy).
 */
const PAGE_EVENTS = 50_000;
/** A rebuild has caught up when fewer events than this are left: the live pages wait while it takes them and switches. */
const SWITCH_BACKLOG = 2_000;
/** Projections applying one page at once: each holds a connection of the pool the API shares. */
const PARALLEL_PROJECTIONS = 4;
/**
 * The runner's summary (where its live pages have got to, which processes without the runner wait on) is written at
 * most this often: pages a few milliseconds apart under load are told in one write. Such processes read it every
 * 20 ms while they wait (platform/projections/progress.ts).
 */
const SUMMARY_EVERY_MS = 20;
/** How often checkpoints moved in memory only are stored, the runner's heartbeat written and rebuild requests read. */
const HOUSEKEEPING_MS = 1_000;

export interface SubscriptionState {
  status: 'running' | 'resubscribing';
  /** Failures in a row, and the last one's message, while resubscribing. */
  failures: number;
  reason: string | null;
  since: Date | null;
}

// The API's dependencies name the publisher's notice from here.
export type { ChangeNotice };

export interface ProjectionContext {
  /**
   * The projection's own collections. Within a page of events, documents read and written by `_id` (findOne({ _id }),
   * applyToDocument) are kept in memory and written once at the end of the page; any other query first writes what
   * the page changed in that collection, so it costs a round trip: keep them off the hot paths.
   */
  store: DocumentStore;
  /** Queue a change notice; sent once every projection has applied the page, and only for live events. */
  notify(notice: ChangeNotice): void;
  /** False while replaying history (nobody listens): skip work that only serves change notices. */
  live: boolean;
}

export interface Projection {
  name: string;
  /**
   * The version of what its documents hold: raise it when a code change makes them differ from what the log would
   * give now. The runner then builds the new version beside the live one and switches to it once caught up.
   */
  version: number;
  /** Collections this projection owns (and no other projection touches); rebuilt together. */
  collections: readonly string[];
  /** Declares indexes; runs at start (and on a rebuild's new collections), must be idempotent. */
  setup?(store: DocumentStore): Promise<void>;
  apply(event: RecordedEvent, context: ProjectionContext): Promise<void>;
}

export interface ProjectionFailure {
  position: number;
  projection: string;
  error: string;
}

export interface ProjectionRunnerOptions {
  name?: string;
  eventStore: EventStore;
  store: DocumentStore;
  projections: readonly Projection[];
  progress: ProjectionProgress;
  publish?: (notice: ChangeNotice) => void;
  logger: Logger;
  /** Overrides resubscribeDelayMs (tests); also the wait before a page that failed for a passing reason is tried again. */
  resubscribeDelay?: (failuresInARow: number) => number;
  /**
   * Whether this runner may rebuild beside the live collections. Off for runners whose projections must never see an
   * event twice from outside (the mail runner: a rebuild would mail again); their rebuilds are refused.
   */
  rebuilds?: boolean;
  /**
   * 'transactional' (the default): each projection's page is one unit, its documents kept in memory and written once,
   * in one transaction with its checkpoint where the store has them. 'direct': every write goes to the store at once and
   * the checkpoint follows the page (for runners whose writes others must see at once, as the mail runner's outbox
   * entries handed to the queue as they are written; their writes are idempotent by their ids and positions). Direct
   * projections apply each page one after the other, in the order given: a later one may read what an earlier wrote.
   */
  pages?: 'transactional' | 'direct';
  /** The largest page, in events (PAGE_EVENTS when not given). */
  pageEvents?: number;
  /** Told when the runner stops for good (its start-up failed for a reason that is not passing), so its lock is given up. */
  onStopped?: (error: unknown) => void;
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;

/** One projection applied by one reader: the live one, or a rebuild beside it. */
interface Track {
  projection: Projection;
  /** Its checkpoint's _id: the projection's name, or with REBUILD_SUFFIX. */
  checkpoint: string;
  rename: (collection: string) => string;
  /** The last event applied (stored, or passed over in memory). */
  position: number;
  /** The position its checkpoint holds. */
  stored: number;
  failed: ProjectionFailure | null;
  /** Live tracks only: waiting for its rebuild (new to a log with history, or of another store); applies nothing. */
  waiting: boolean;
  /** What it knows of its collections between pages (see page.ts): all they hold while it fills empty ones; null for direct pages. */
  memory: Memory | null;
  /** When its collections were last put in place by a rebuild. */
  rebuiltAt?: string;
  /** How long its last pages took per event, in ms (a moving average): the slowest start a page first. */
  cost?: number;
}

const live = (name: string) => name;
const slowestFirst = (tracks: readonly Track[]) => [...tracks].sort((a, b) => (b.cost ?? 0) - (a.cost ?? 0));
const rebuilt = (name: string) => `${name}${REBUILD_SUFFIX}`;

/**
 * A page's change notices, each said once: the same message to the same rooms with the same payload tells nothing
 * the first did not (a page of likes would send "the stats changed" once per like, to every member's browser).
 */
export function distinctNotices(notices: readonly ChangeNotice[]): ChangeNotice[] {
  const said = new Set<string>();
  return notices.filter((notice) => {
    const key = JSON.stringify([notice.message, notice.rooms, notice.payload]);
    if (said.has(key)) return false;
    said.add(key);
    return true;
  });
}

/**
 * `work` for each projection at once, their results in the projections' order; once all have ended (none left running
 * behind a retry), the first failure is thrown.
 */
async function everyOne<R>(projections: readonly Projection[], work: (projection: Projection) => Promise<R>): Promise<R[]> {
  const settled = await Promise.allSettled(projections.map(work));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<R>).value);
}

function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** One at a time: the live pages, and a rebuild's switch between two of them. */
function createLock() {
  let tail: Promise<unknown> = Promise.resolve();
  return <R>(work: () => Promise<R>): Promise<R> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** A page this long is a replay's: it waits a little for the adapter's next read instead of ending there. */
const REPLAY_PAGE = 256;
const REPLAY_WAIT_MS = 10;
/**
 * A page of history the log is known to hold more of (before the head the runner saw at start, or where its live pages
 * got to) runs on to the largest page across the adapter's reads, however long each read takes (a cold replay of 100,000 events
 * made pages of 200 to 2,000 events wherever a read took longer than REPLAY_WAIT_MS); at most this long for one event,
 * in case the adapter holds it back.
 */
const HISTORY_WAIT_MS = 1_000;
/**
 * A live page whose first event was read while the last page was being applied is late: what the adapter still holds
 * of that read is as old as that page, and the writers of what was appended meanwhile are waiting too. It takes what
 * the adapter reads next, until the adapter says it has caught up with the log (SubscribeOptions.onCaughtUp), or for
 * at most this long from its start (an adapter that does not say so), so that one page takes them all instead of the
 * next one after one more page's work (25 members liking at once made pages of 3 to 5 events, each waiting for the last).
 */
const LATE_PAGE_WAIT_MS = 50;

/** Counts the adapter's "caught up" hints, and wakes whoever waits for the next one. */
function createCaughtUpSignal() {
  let seen = 0;
  let wake: (() => void) | null = null;
  let next: Promise<void> | null = null;
  return {
    seen: () => seen,
    mark() {
      seen++;
      wake?.();
      wake = next = null;
    },
    next: () => (next ??= new Promise<void>((resolve) => (wake = resolve))),
  };
}
type CaughtUpSignal = ReturnType<typeof createCaughtUpSignal>;

/** When a page stops waiting for its next event (one per event read, so no closure of its own: docs/architecture.md#measured-reasons). */
type Deadline = { promise: Promise<'tick'>; timeout: NodeJS.Timeout | null; immediate: NodeJS.Immediate | null };
const cancel = ({ timeout, immediate }: Deadline) => (timeout ? clearTimeout(timeout) : clearImmediate(immediate!));

/**
 * Pages of what the log has ready: an event, then every one that follows without waiting (the adapters yield what they
 * have read from memory), up to `size`. Live events come in pages of their own; a page of history runs on to `size`
 * across the adapter's reads (HISTORY_WAIT_MS), and the next one is read while it is applied; any other long page runs
 * on while events keep coming (it ends after REPLAY_WAIT_MS without one), so that each projection commits less often;
 * a late page runs on until the adapter has caught up (LATE_PAGE_WAIT_MS).
 */
async function* pagesOf(
  events: AsyncIterable<RecordedEvent>,
  size: number,
  caughtUp: CaughtUpSignal,
  /** A position the log is known to reach: a page before it is history. */
  knownUpTo: () => number,
): AsyncGenerator<RecordedEvent[]> {
  const iterator = events[Symbol.asyncIterator]();
  type Next = IteratorResult<RecordedEvent> | { failed: unknown };
  // A failure after some events of a page comes after that page: what was read is applied first.
  const pull = (): Promise<Next> =>
    iterator.next().then(
      (result) => result,
      (failed: unknown) => ({ failed }),
    );
  /** Resolves 'tick' when the page should end: at once after what is ready, after `waitMs`, or when `until` settles. */
  const deadline = (waitMs: number, until?: Promise<void>): Deadline => {
    let timeout: NodeJS.Timeout | null = null;
    let immediate: NodeJS.Immediate | null = null;
    const promise = new Promise<'tick'>((resolve) => {
      if (waitMs > 0) timeout = setTimeout(resolve, waitMs, 'tick');
      else immediate = setImmediate(resolve, 'tick');
      void until?.then(() => resolve('tick'));
    });
    return { promise, timeout, immediate };
  };
  let pending: Promise<Next> | null = null;
  /** Whether `pending` has settled: an event read before the page asked for it (while the last page was applied). */
  let ready = false;
  const ask = () => {
    ready = false;
    const asked = pull();
    void asked.then(() => {
      if (pending === asked) ready = true;
    });
    return asked;
  };
  let stopped = false;
  /**
   * The page after a whole page of history, read while that one is applied: up to `size` events, or to the first at or
   * past knownUpTo (the usual rules from there). A failure or the end is left in `pending`, for after what was read.
   */
  const readAhead = async () => {
    const ahead: RecordedEvent[] = [];
    while (ahead.length < size && !stopped) {
      const next = await (pending ??= ask());
      if ('failed' in next || next.done) break;
      pending = null;
      ahead.push(next.value);
      if (next.value.position >= knownUpTo()) break;
    }
    return ahead;
  };
  let readingAhead: Promise<RecordedEvent[]> | null = null;
  try {
    for (;;) {
      const page = readingAhead ? await readingAhead : [];
      readingAhead = null;
      // Read while the last page was applied: late, as below.
      let lateUntil = page.length > 0 ? performance.now() + LATE_PAGE_WAIT_MS : 0;
      if (page.length === 0) {
        const late = pending !== null && ready;
        const first = await (pending ?? ask());
        pending = null;
        if ('failed' in first) throw first.failed;
        if (first.done) return;
        page.push(first.value);
        if (late) lateUntil = performance.now() + LATE_PAGE_WAIT_MS;
      }
      const caughtUpBefore = caughtUp.seen();
      /** How long the page waits for its next event. */
      const pageEnd = () => {
        if (page[page.length - 1]!.position < knownUpTo()) return deadline(HISTORY_WAIT_MS);
        if (page.length >= REPLAY_PAGE) return deadline(REPLAY_WAIT_MS);
        const waitMs = Math.ceil(lateUntil - performance.now());
        return waitMs > 0 && caughtUp.seen() === caughtUpBefore ? deadline(waitMs, caughtUp.next()) : deadline(0);
      };
      while (page.length < size) {
        pending ??= ask();
        const end = pageEnd();
        const next = await Promise.race([pending, end.promise]);
        cancel(end);
        if (next === 'tick' || 'failed' in next) break;
        pending = null;
        if (next.done) {
          yield page;
          return;
        }
        page.push(next.value);
      }
      if (page.length === size && page[size - 1]!.position < knownUpTo()) readingAhead = readAhead();
      yield page;
    }
  } finally {
    stopped = true;
    // The reader stopped reading: the subscription ends (after the read under way), releasing its connections.
    void iterator.return?.().catch(() => undefined);
  }
}

export function createProjectionRunner(options: ProjectionRunnerOptions) {
  const name = options.name ?? 'read-models';
  const { eventStore, store, projections, progress, logger } = options;
  const checkpoints = store.collection<ProjectionCheckpoint>(CHECKPOINTS);
  const summaries = store.collection<RunnerSummary>(CHECKPOINTS);
  const rebuildRequests = store.collection<RebuildRequest>(REBUILDS);
  const delay = options.resubscribeDelay ?? resubscribeDelayMs;
  const pageEvents = options.pageEvents ?? PAGE_EVENTS;
  const healthy = (): SubscriptionState => ({ status: 'running', failures: 0, reason: null, since: null });

  let controller: AbortController | null = null;
  let loops: Promise<void>[] = [];
  let housekeeping: NodeJS.Timeout | null = null;
  let housekept: Promise<void> = Promise.resolve();
  let identity = '';
  let subscription = healthy();
  let applied = 0;
  /** Where every live page has got to: each live track is there or past it, or failed. */
  let livePosition = 0;
  let liveFrom = 0;
  let tracks: Track[] = [];
  const rebuilding = new Map<string, Promise<void>>();
  /** Rebuilds that failed in this process: not started again by themselves, only when asked for again. */
  const failedRebuilds = new Set<string>();
  const livePages = createLock();
  /** What the runner is doing now: named in the log when it is slow to stop (an event applied is put in words only then). */
  let step: string | { track: Track; event: RecordedEvent } = 'starting';
  const stepNow = () =>
    typeof step === 'string' ? step : `${step.track.checkpoint}: applying ${step.event.type} at ${step.event.position}`;

  const byName = new Map(projections.map((projection) => [projection.name, projection]));
  if (byName.size !== projections.length) throw new Error(`${name}: two projections share a name`);

  const activeLive = () => tracks.filter((track) => !track.failed && !track.waiting);

  /** The position read-your-writes waits for: every live projection that applies events has passed it. */
  function reportProgress() {
    const positions = activeLive().map((track) => track.position);
    const reached = positions.length > 0 ? Math.min(...positions) : livePosition;
    progress.reached(reached);
  }

  function checkpointOf(track: Track): ProjectionCheckpoint {
    return {
      _id: track.checkpoint,
      runner: name,
      position: track.position,
      version: track.projection.version,
      eventStore: identity,
      failed: track.failed,
      updatedAt: new Date().toISOString(),
      ...(track.rebuiltAt ? { rebuiltAt: track.rebuiltAt } : {}),
    };
  }

  /**
   * Stores a track's checkpoint in `target` (the page's transaction, where there is one), guarded by its position like
   * every projection write: a runner behind another (two overlap while the lock is taken over) never moves it back.
   */
  async function storeCheckpoint(track: Track, target: Pick<DocumentStore, 'collection'>) {
    await target
      .collection<ProjectionCheckpoint>(CHECKPOINTS)
      .savePositioned({ put: [{ ...checkpointOf(track), _position: track.position }], remove: [] });
    track.stored = track.position;
  }

  /** Applies events to one track as one unit: all or nothing. Throws what the projection or the stores threw. */
  async function applyUnit(track: Track, events: readonly RecordedEvent[], told: ChangeNotice[] | null) {
    let transaction: Transaction | null = null;
    let opening: Promise<DocumentStore | Transaction> | null = null;
    const direct = options.pages === 'direct';
    const open = () =>
      (opening ??=
        store.begin && !direct
          ? // Not waiting for the disk: a crash loses the last pages and their checkpoint together, and they are applied again.
            store.begin({ durable: false }).then((opened) => {
              transaction = opened;
              return opened;
            })
          : Promise.resolve(store));
    const page = openPage(open, { rename: track.rename, cached: !direct, memory: track.memory });
    const notices: ChangeNotice[] = [];
    const context: ProjectionContext = { store: page, notify: (notice) => notices.push(notice), live: false };
    const before = track.position;
    const applying = { track, event: events[0]! };
    try {
      for (const event of events) {
        context.live = told !== null && event.position > liveFrom;
        applying.event = event;
        step = applying;
        await track.projection.apply(event, context);
      }
      track.position = events[events.length - 1]!.position;
      // A page that read and wrote nothing in the store (or only in memory, in a replay) has nothing to commit otherwise.
      if (opening || page.hasChanges()) {
        step = `${track.checkpoint}: writing its page up to ${track.position}`;
        await page.flush();
        await storeCheckpoint(track, await open());
        await (transaction as Transaction | null)?.commit();
        page.remember();
      }
    } catch (error) {
      track.position = before;
      await (transaction as Transaction | null)?.rollback().catch(() => undefined);
      throw error;
    }
    told?.push(...notices);
  }

  /**
   * Applies a page to one track: retried while the reason is passing; on the projection's own failure, applied again
   * event by event to keep what comes before the failing event, and the track stops there.
   */
  async function applyPage(track: Track, page: readonly RecordedEvent[], told: ChangeNotice[] | null, signal: AbortSignal) {
    for (let failures = 0; !signal.aborted; ) {
      const events = page.filter((event) => event.position > track.position);
      if (events.length === 0 || track.failed) return;
      try {
        await applyUnit(track, events, told);
        return;
      } catch (error) {
        if (isTransient(error)) {
          failures++;
          const waitMs = delay(failures);
          logger.error(
            { projection: track.checkpoint, position: track.position, failures, waitMs, err: error },
            `Projection ${track.checkpoint} could not apply a page (${String(error)}); trying again in ${waitMs} ms`,
          );
          await pause(waitMs, signal);
          continue;
        }
        if (events.length > 1) {
          for (const event of events) {
            await applyPage(track, [event], told, signal);
            if (track.failed) return;
          }
          return;
        }
        await stopTrack(track, events[0]!, error);
        return;
      }
    }
  }

  async function stopTrack(track: Track, event: RecordedEvent, error: unknown) {
    track.failed = { position: event.position, projection: track.checkpoint, error: String(error) };
    logger.error(
      { projection: track.checkpoint, position: event.position, eventType: event.type, stream: event.streamName, err: error },
      `Projection ${track.checkpoint} failed on event ${event.type} at position ${event.position}; it stopped there (the others go on) and resumes from position ${track.position} after a restart or a rebuild`,
    );
    await checkpoints
      .updateOne({ _id: track.checkpoint }, { $set: { failed: track.failed, updatedAt: new Date().toISOString() } })
      .catch((stored: unknown) => logger.error({ err: stored }, `could not record that ${track.checkpoint} stopped`));
  }

  /**
   * Applies one page to every track, a few projections at a time. `told`: where a live page's change notices go, to be
   * sent once every projection has applied it (null: a replay's page).
   */
  async function applyToTracks(group: Track[], page: readonly RecordedEvent[], told: ChangeNotice[] | null, signal: AbortSignal) {
    const parallel = options.pages === 'direct' ? 1 : PARALLEL_PROJECTIONS;
    // The slowest first, so that the page does not wait at its end for one that started last (direct: in the order given).
    const order = parallel > 1 ? slowestFirst(group) : group;
    let next = 0;
    const worker = async () => {
      while (next < order.length) {
        const track = order[next++]!;
        const started = performance.now();
        await applyPage(track, page, told, signal);
        const cost = (performance.now() - started) / page.length;
        track.cost = track.cost === undefined ? cost : (track.cost + cost) / 2;
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, group.length) }, worker));
    applied += page.length;
  }

  /**
   * Follows the log from `from()` with resubscription, handing each page to `onPage`. Returns when the signal aborts or
   * `onPage` says stop.
   */
  async function follow(
    from: () => number,
    onPage: (page: RecordedEvent[]) => Promise<'go on' | 'stop'>,
    outer: AbortSignal,
    report: boolean,
  ) {
    // Its own signal, so that a reader done with the log ('stop') ends its subscription at once.
    const reading = new AbortController();
    const abort = () => reading.abort();
    outer.addEventListener('abort', abort, { once: true });
    // Stopped before it began (a runner stopped right after it started): an abort already past fires no event.
    if (outer.aborted) abort();
    try {
      await followUntil(from, onPage, reading.signal, report);
    } finally {
      outer.removeEventListener('abort', abort);
      reading.abort();
    }
  }

  async function followUntil(
    from: () => number,
    onPage: (page: RecordedEvent[]) => Promise<'go on' | 'stop'>,
    signal: AbortSignal,
    report: boolean,
  ) {
    while (!signal.aborted) {
      let reason: string;
      let recovered: NodeJS.Timeout | undefined;
      if (report && subscription.status === 'resubscribing') {
        const state = subscription;
        recovered = setTimeout(() => {
          if (subscription === state) subscription = healthy();
        }, RECOVERED_AFTER_MS);
      }
      try {
        const caughtUp = createCaughtUpSignal();
        const events = eventStore.subscribeToAll({ after: from(), signal, onCaughtUp: caughtUp.mark });
        for await (const page of pagesOf(events, pageEvents, caughtUp, () => Math.max(liveFrom, livePosition))) {
          if (report && subscription.status === 'resubscribing') subscription = healthy();
          if ((await onPage(page)) === 'stop') return;
        }
        if (signal.aborted) return;
        reason = 'the subscription ended';
      } catch (error) {
        if (signal.aborted) return;
        reason = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(recovered);
      }
      const failures = (report ? subscription.failures : 0) + 1;
      if (report) subscription = { status: 'resubscribing', failures, reason, since: subscription.since ?? new Date() };
      const waitMs = delay(failures);
      logger.error(
        { runner: name, position: from(), failures, waitMs, reason },
        `The ${name} subscription dropped (${reason}); subscribing again from position ${from()} in ${waitMs} ms`,
      );
      await pause(waitMs, signal);
    }
  }

  async function runLive(signal: AbortSignal) {
    const startAt = () => {
      const positions = activeLive().map((track) => track.position);
      return positions.length > 0 ? Math.min(...positions) : livePosition;
    };
    livePosition = startAt();
    await follow(
      startAt,
      (page) =>
        livePages(async () => {
          const told: ChangeNotice[] = [];
          await applyToTracks(activeLive(), page, told, signal);
          livePosition = Math.max(livePosition, page[page.length - 1]!.position);
          // Caught up with the log as it was at start: a replay's memory keeps, from now on, only what live pages use.
          if (livePosition >= liveFrom) for (const track of tracks) track.memory = track.memory?.live() ?? null;
          reportProgress();
          // Only now: a reader told of a change must find it in every read model (and past every read cache).
          if (options.publish) for (const notice of distinctNotices(told)) options.publish(notice);
          writeSummary();
          step = `reading the log after ${livePosition}`;
          return 'go on' as const;
        }),
      signal,
      true,
    );
  }

  /** Makes new collections for a rebuild, or keeps those of one under way with the same version. */
  async function prepareRebuild(projection: Projection): Promise<Track> {
    const track: Track = {
      projection,
      checkpoint: rebuilt(projection.name),
      rename: rebuilt,
      position: 0,
      stored: 0,
      failed: null,
      waiting: false,
      memory: new Memory(projection.collections, 'partial'),
    };
    const stored = await checkpoints.findOne({ _id: track.checkpoint });
    if (stored && stored.version === projection.version && stored.eventStore === identity && !stored.failed) {
      track.position = track.stored = stored.position;
    } else {
      track.memory = new Memory(projection.collections);
      for (const collection of projection.collections) await store.collection(rebuilt(collection)).drop();
      await checkpoints.deleteOne({ _id: track.checkpoint });
      await checkpoints.insertOne(checkpointOf(track));
    }
    await projection.setup?.(renamedStore(rebuilt));
    return track;
  }

  function renamedStore(rename: (collection: string) => string): DocumentStore {
    return { ...store, collection: (collection) => store.collection(rename(collection)) };
  }

  /**
   * Rebuilds these projections beside the live ones, then puts them in their place: caught up, the live pages pause,
   * the rebuild takes the events up to where they got, and the collections and checkpoints change in one transaction.
   */
  async function rebuild(names: readonly string[], signal: AbortSignal) {
    const group = await Promise.all(names.map((projectionName) => prepareRebuild(byName.get(projectionName)!)));
    const started = performance.now();
    const first = Math.min(...group.map((track) => track.position));
    logger.info({ runner: name, projections: names, from: first }, `rebuilding ${names.join(', ')} beside the live read models`);
    await follow(
      () => Math.min(...group.filter((track) => !track.failed).map((track) => track.position)),
      async (page) => {
        await applyToTracks(group, page, null, signal);
        const going = group.filter((track) => !track.failed);
        if (going.length === 0) return 'stop';
        // Caught up: little of the log is left (a page may end where the adapter's reads do, or the log where a page does).
        if ((await eventStore.backlog(Math.min(...going.map((track) => track.position)), SWITCH_BACKLOG)).events >= SWITCH_BACKLOG)
          return 'go on';
        await livePages(() =>
          switchTo(
            group.filter((track) => !track.failed),
            signal,
          ),
        );
        return 'stop';
      },
      signal,
      false,
    );
    for (const track of group.filter((one) => one.failed)) {
      failedRebuilds.add(track.projection.name);
      await recordRebuildFailure(track);
    }
    if (!signal.aborted)
      logger.info(
        { runner: name, projections: names, seconds: ((performance.now() - started) / 1000).toFixed(1) },
        `rebuilt ${names.join(', ')}`,
      );
  }

  async function recordRebuildFailure(track: Track) {
    await rebuildRequests.updateOne({ _id: track.projection.name }, { $set: { failed: track.failed } }).catch(() => undefined);
  }

  /** Within the live pages' lock: the rebuild takes the last events, then its collections replace the live ones. */
  async function switchTo(group: Track[], signal: AbortSignal) {
    if (group.length === 0) return;
    const target = livePosition;
    if (Math.min(...group.map((track) => track.position)) < target) {
      await follow(
        () => Math.min(...group.map((track) => track.position)),
        async (page) => {
          await applyToTracks(
            group,
            page.filter((event) => event.position <= target),
            null,
            signal,
          );
          return page[page.length - 1]!.position >= target ? 'stop' : 'go on';
        },
        signal,
        false,
      );
    }
    if (signal.aborted || group.some((track) => track.failed)) return;
    const switchedAt = new Date().toISOString();
    const transaction = store.begin ? await store.begin() : null;
    const place: Pick<DocumentStore, 'collection' | 'replaceCollection'> = transaction ?? store;
    try {
      for (const track of group) {
        for (const collection of track.projection.collections) {
          await place.replaceCollection(rebuilt(collection), collection);
        }
        const liveTrack = tracks.find((one) => one.projection === track.projection)!;
        const switched = checkpointOf({ ...liveTrack, position: track.position, failed: null, rebuiltAt: switchedAt });
        await place
          .collection<ProjectionCheckpoint>(CHECKPOINTS)
          .replaceOne({ _id: liveTrack.checkpoint }, { ...switched, _position: track.position }, { upsert: true });
        await place.collection(CHECKPOINTS).deleteOne({ _id: track.checkpoint });
        await place.collection(REBUILDS).deleteOne({ _id: track.projection.name });
      }
      await transaction?.commit();
    } catch (error) {
      await transaction?.rollback().catch(() => undefined);
      throw error;
    }
    for (const track of group) {
      const liveTrack = tracks.find((one) => one.projection === track.projection)!;
      Object.assign(liveTrack, {
        position: track.position,
        stored: track.position,
        failed: null,
        waiting: false,
        // Its collections are new: what the live pages knew of the old ones goes.
        memory: new Memory(track.projection.collections, 'partial'),
        rebuiltAt: switchedAt,
      });
    }
    reportProgress();
  }

  /** Starts the rebuilds asked for, and those a version change or a new projection needs. */
  async function startRebuilds(signal: AbortSignal) {
    const asked = await rebuildRequests.find({ runner: name, failed: null });
    const wanted = new Set(asked.map((request) => request._id).filter((projectionName) => byName.has(projectionName)));
    for (const projectionName of wanted) failedRebuilds.delete(projectionName);
    for (const track of tracks) if (track.waiting && !failedRebuilds.has(track.projection.name)) wanted.add(track.projection.name);
    const names = [...wanted].filter((projectionName) => !rebuilding.has(projectionName));
    if (names.length === 0 || signal.aborted) return;
    const run = rebuild(names, signal).catch((error: unknown) => {
      if (signal.aborted) return;
      logger.error(
        { err: error, projections: names },
        `the rebuild of ${names.join(', ')} failed; it starts again on the next request or restart`,
      );
    });
    const done = run.finally(() => {
      for (const projectionName of names) rebuilding.delete(projectionName);
    });
    for (const projectionName of names) rebuilding.set(projectionName, done);
  }

  /** Stores the checkpoints that moved in memory only, and the runner's summary: its position and heartbeat. */
  async function keepHouse(signal: AbortSignal) {
    if (activeLive().some((track) => track.position !== track.stored))
      // All in one statement, between two pages (a write each held the live pages back once per projection).
      await livePages(async () => {
        const moved = activeLive().filter((track) => track.position !== track.stored);
        if (moved.length === 0) return;
        const positions = moved.map((track) => track.position);
        await checkpoints.savePositioned({
          put: moved.map((track) => ({ ...checkpointOf(track), _position: track.position })),
          remove: [],
        });
        moved.forEach((track, i) => (track.stored = positions[i]!));
      });
    writeSummary(true);
    await summaryWritten;
    if (options.rebuilds !== false) await startRebuilds(signal);
  }

  let summaryWritten: Promise<void> = Promise.resolve();
  let summaryWanted = false;
  let heartbeatWanted = false;
  let summaryWrittenAt = 0;
  /**
   * Stores where the runner has got to (the least position of its live projections) and that it is alive: processes
   * that do not run it wait on this for read-your-writes. One write at a time, at most one every SUMMARY_EVERY_MS; the
   * last one asked for is written. After live pages, one statement that writes only over an older position; the
   * heartbeat (`heartbeat`, each second) is written whatever the position.
   */
  function writeSummary(heartbeat = false) {
    heartbeatWanted ||= heartbeat;
    if (summaryWanted) return;
    summaryWanted = true;
    summaryWritten = summaryWritten.then(async () => {
      // The live pages that end meanwhile are told in this write.
      const waitMs = summaryWrittenAt + SUMMARY_EVERY_MS - performance.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      summaryWrittenAt = performance.now();
      summaryWanted = false;
      const whole = heartbeatWanted;
      heartbeatWanted = false;
      // As reported once its pages were committed: a track's position moves before its page's commit ends, and this
      // write may run meanwhile (the heartbeat, or a write queued behind another).
      const position = progress.current();
      const summary: RunnerSummary = {
        _id: name,
        _position: position,
        summary: true,
        position,
        eventStore: identity,
        heartbeatAt: new Date().toISOString(),
        projections: projections.map((projection) => projection.name),
      };
      await (whole
        ? summaries.replaceOne({ _id: name }, summary, { upsert: true })
        : summaries.savePositioned({ put: [summary], remove: [] })
      ).catch((error: unknown) => logger.error({ err: error, runner: name }, `${name}: could not store where it has got to`));
    });
  }

  /** Loads every projection's checkpoint; one from before checkpoints per projection starts where the runner's was. */
  async function load() {
    const stored = new Map((await checkpoints.find({ runner: name })).map((checkpoint) => [checkpoint._id, checkpoint]));
    const summary = await summaries.findOne({ _id: name });
    // The runner's single checkpoint of old: every projection had applied the log up to it, as version 1.
    const legacy = summary && !summary.summary && summary.eventStore === identity ? summary.position : null;
    const logHasEvents = (await eventStore.headPosition()) > 0;
    const anyStored = stored.size > 0 || legacy !== null;
    // Each projection's checkpoint and collections are its own: all are read at once.
    tracks = await everyOne(projections, async (projection) => {
      const track: Track = {
        projection,
        checkpoint: live(projection.name),
        rename: live,
        position: 0,
        stored: 0,
        failed: null,
        waiting: false,
        memory: null,
      };
      let checkpoint = stored.get(projection.name) ?? null;
      if (!checkpoint && legacy !== null) {
        checkpoint = { ...checkpointOf({ ...track, position: legacy }), version: 1 };
        await checkpoints.insertOne(checkpoint).catch(ignoreDuplicate);
      }
      if (checkpoint) {
        track.position = track.stored = checkpoint.position;
        if (checkpoint.rebuiltAt) track.rebuiltAt = checkpoint.rebuiltAt;
        if (checkpoint.eventStore !== identity && options.rebuilds === false) {
          track.failed = {
            position: checkpoint.position,
            projection: projection.name,
            error: `its checkpoint counts in another event store (${checkpoint.eventStore}), not ${identity}`,
          };
          logger.error(
            { projection: projection.name, checkpointEventStore: checkpoint.eventStore, eventStore: identity },
            `The ${projection.name} checkpoint was written against another event store; it does not start. Point EVENT_STORE back at that store, or remove its checkpoint.`,
          );
        } else if (checkpoint.eventStore !== identity) {
          track.waiting = true;
          logger.error(
            { projection: projection.name, checkpointEventStore: checkpoint.eventStore, eventStore: identity },
            `The ${projection.name} checkpoint was written against another event store (${checkpoint.eventStore}); this one is ${identity}. Its position means nothing here: it is rebuilt from this store's log.`,
          );
        } else if (checkpoint.version !== projection.version && options.rebuilds === false) {
          // Never rebuilt (it would act again on what it did): the new code goes on from where the old one was.
          logger.info(
            { projection: projection.name, from: checkpoint.version, to: projection.version },
            `${projection.name} changed version; it goes on from its checkpoint (this runner is never rebuilt)`,
          );
          await checkpoints.updateOne({ _id: track.checkpoint }, { $set: { version: projection.version } });
        } else if (checkpoint.version !== projection.version) {
          logger.info(
            { projection: projection.name, from: checkpoint.version, to: projection.version },
            `${projection.name} changed version: rebuilding it beside the live one`,
          );
          await rebuildRequests.replaceOne(
            { _id: projection.name },
            { _id: projection.name, runner: name, requestedAt: new Date().toISOString(), failed: null },
            { upsert: true },
          );
        }
        // A projection that stopped on an event tries it again at each start: the code may have been fixed since.
        if (checkpoint.failed && !track.failed) await checkpoints.updateOne({ _id: track.checkpoint }, { $set: { failed: null } });
      } else if (anyStored && logHasEvents && options.rebuilds !== false) {
        // New to a log with history: built beside, so that the others do not wait for it.
        track.waiting = true;
        await checkpoints.insertOne(checkpointOf(track)).catch(ignoreDuplicate);
      } else {
        await checkpoints.insertOne(checkpointOf(track)).catch(ignoreDuplicate);
      }
      if (options.pages !== 'direct')
        track.memory = new Memory(
          projection.collections,
          track.position === 0 && !track.waiting && (await isEmpty(projection)) ? 'complete' : 'partial',
        );
      return track;
    });
  }

  async function isEmpty(projection: Projection) {
    for (const collection of projection.collections) if ((await store.collection(collection).countDocuments()) > 0) return false;
    return true;
  }

  async function startUp(signal: AbortSignal) {
    for (let failures = 1; ; failures++) {
      try {
        identity = await eventStore.identity();
        // Each declares its own collections' indexes: all at once (a fresh site's start-up took a third of a second so).
        await everyOne(projections, async (projection) => projection.setup?.(store));
        await load();
        liveFrom = await eventStore.headPosition();
        return;
      } catch (error) {
        if (!isTransient(error) || signal.aborted) throw error;
        const waitMs = delay(failures);
        logger.error(
          { err: error, runner: name, waitMs },
          `The ${name} runner could not start (${String(error)}); trying again in ${waitMs} ms`,
        );
        await pause(waitMs, signal);
      }
    }
  }

  async function run(signal: AbortSignal) {
    reportProgress();
    await keepHouse(signal);
    // Stopped meanwhile: stop() has cleared no interval yet, and one set now would run on after it.
    if (signal.aborted) return;
    housekeeping = setInterval(() => {
      housekept = housekept
        .then(() => keepHouse(signal))
        .catch((error: unknown) => logger.error({ err: error, runner: name }, `${name}: could not store checkpoints`));
    }, HOUSEKEEPING_MS);
    await runLive(signal);
  }

  return {
    name,
    /** Resolves once the runner runs: its checkpoints loaded, its indexes declared (retried while the stores are out of reach). */
    async start() {
      subscription = healthy();
      controller = new AbortController();
      const signal = controller.signal;
      await startUp(signal);
      // Stopped while it started: stop() found no loop to wait for, so none may begin now.
      if (signal.aborted) return;
      loops = [
        run(signal).catch((error: unknown) => {
          if (signal.aborted) return;
          logger.error({ err: error, runner: name }, `The ${name} runner stopped`);
          options.onStopped?.(error);
        }),
      ];
    },
    async stop() {
      controller?.abort();
      if (housekeeping) clearInterval(housekeeping);
      housekeeping = null;
      await namedIfSlow(logger, `${name}: its housekeeping`, housekept);
      await namedIfSlow(logger, `${name}: its live pages`, Promise.all(loops), () => ({ step: stepNow() }));
      await namedIfSlow(logger, `${name}: its rebuilds`, Promise.all(rebuilding.values()));
      loops = [];
      // What moved in memory only is kept, so that a restart does not read it again.
      for (const track of activeLive()) if (track.position !== track.stored) await storeCheckpoint(track, store).catch(() => undefined);
      if (identity) writeSummary(true);
      await summaryWritten;
    },
    /** Drops every read model, rebuild and checkpoint of this runner, so the next start replays the whole log. */
    async reset() {
      for (const projection of projections) {
        for (const collection of projection.collections) {
          await store.collection(collection).drop();
          await store.collection(rebuilt(collection)).drop();
        }
        await checkpoints.deleteOne({ _id: live(projection.name) });
        await checkpoints.deleteOne({ _id: rebuilt(projection.name) });
        await rebuildRequests.deleteOne({ _id: projection.name });
      }
      await checkpoints.deleteOne({ _id: name });
    },
    /**
     * A live projection's document as its last page committed it, where the runner holds it (page.ts Memory); undefined
     * where it does not, or while the runner does not run. See `readingCommitted`.
     */
    committed(collection: string, id: string): Document | undefined {
      if (!controller || controller.signal.aborted) return undefined;
      const track = tracks.find((one) => one.projection.collections.includes(collection));
      return track && !track.failed && !track.waiting ? track.memory?.document(collection, id) : undefined;
    },
    /** The first projection that stopped on an event, in this process. */
    failure: (): ProjectionFailure | null => tracks.find((track) => track.failed)?.failed ?? null,
    failures: (): ProjectionFailure[] => tracks.flatMap((track) => (track.failed ? [track.failed] : [])),
    subscription: () => subscription,
    /** Events read and handed to the projections since this process started the runner. */
    applied: () => applied,
    projections: () => projections.map((projection) => projection.name),
  };
}

/**
 * The store as the process that runs a runner reads it: a document asked for by `_id` alone comes, where `committed`
 * (the runner's, while this process's read-your-writes waits on it) holds it, from what its last page committed (a
 * copy: the runner's is never handed out), else from the store. The runner is the only writer of its projections'
 * collections, and a command here waits for its pages, so it reads the same document without a round trip (a like's
 * answer was one statement of its three).
 */
export function readingCommitted(store: DocumentStore, committed: ProjectionRunner['committed']): DocumentStore {
  return {
    ...store,
    collection<T extends Document>(name: string) {
      const collection = store.collection<T>(name);
      const findOne: Collection<T>['findOne'] = (filter, options) => {
        const id = options === undefined && typeof filter._id === 'string' && Object.keys(filter).length === 1 ? filter._id : null;
        const held = id === null ? undefined : committed(name, id);
        return held ? Promise.resolve(structuredClone(held) as T) : collection.findOne(filter, options);
      };
      return new Proxy(collection, {
        get(target, key) {
          if (key === 'findOne') return findOne;
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}

/** Another runner (two overlap while the lock is taken over) wrote the same first checkpoint. */
function ignoreDuplicate(error: unknown) {
  if (!(error instanceof DuplicateKeyError)) throw error;
}
