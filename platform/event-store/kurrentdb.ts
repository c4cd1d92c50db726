/**
 * The KurrentDB event store (scale-out), on @kurrent/kurrentdb-client. Stream
 * revisions are our versions; the commit position in `$all` is our global
 * position (a byte offset, far below 2^53 for any realistic log). System events
 * (types starting with `$`) never reach subscribers.
 *
 * The port's failures: KurrentDB's own size errors become AppendTooLargeError (the
 * port's limit is its default maximum append size, checked before sending too);
 * a server that cannot answer now (unreachable, not the leader, no leader known yet,
 * not ready, too busy, timed out: what an election or a start looks like) is retried
 * (the client reconnects, to the leader, on its next call), then
 * EventStoreUnavailableError; so is access denied, at once and with a message that
 * names the credentials (the site answers 503 either way, never 500). KurrentDB
 * itself makes a retried append with the same ids idempotent; it checks ids only
 * within a stream.
 *
 * This log's identity is a random id, the data of the first event of the stream
 * `bhc-event-store`, appended only where there is no such stream (NO_STREAM): of
 * processes starting together on an empty log, one append wins and every process
 * reads the winner's. Its type starts with `$`, as system events' do, so the
 * system-event filter keeps it from subscribers and counts. (Earlier versions kept
 * the id in the stream's metadata; such a log keeps its id.)
 */
import { randomUUID } from 'node:crypto';
import {
  ANY,
  AccessDeniedError,
  AppendRecordSizeExceededError,
  BACKWARDS,
  DeadlineExceededError,
  END,
  FORWARDS,
  KurrentDBClient,
  MaxAppendSizeExceededError,
  NO_STREAM,
  NotLeaderError,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  TimeoutError,
  TransactionMaxSizeExceededError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendStreamState,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import {
  AppendTooLargeError,
  EventStoreUnavailableError,
  MAX_APPEND_BYTES,
  appendBytes,
  retryWhileUnavailable,
  type EventStore,
  type ExpectedVersion,
  type RecordedEvent,
  WrongExpectedVersionError,
} from './port';

const IDENTITY_STREAM = 'bhc-event-store';
const IDENTITY_EVENT = '$bhc-event-store-named';

/**
 * What the server says when it cannot take a request now: during an election or a start it answers a batch append
 * (the client's usual append) with one of these as a status the client does not recognise (an UnknownError).
 */
const NOT_NOW = /\b(?:Server Is Not Ready|Server Is (?:Too )?Busy|No leader info available)\b/iu;

/**
 * The client's errors for a server that cannot answer now: unreachable, not the leader, no leader yet, not ready,
 * too busy, or too slow (a deadline, or the server's own commit timeout).
 */
export function isKurrentUnavailable(error: unknown): boolean {
  return (
    error instanceof UnavailableError ||
    error instanceof NotLeaderError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    (error instanceof UnknownError && NOT_NOW.test(error.message))
  );
}

/**
 * The port's error for a client error that is not the caller's: access denied is the port's unavailable store (the
 * site answers 503, not 500), with a message that says what to check. Other errors stay as they are.
 */
export function kurrentFailure(error: unknown): unknown {
  if (!(error instanceof AccessDeniedError)) return error;
  return new EventStoreUnavailableError(
    new Error(
      `KurrentDB denied access (${error.message || 'access denied'}): check the user and password in KURRENTDB_URL and that this user may read $all and read and write the site's streams`,
      { cause: error },
    ),
  );
}

/** How many single-event reads readEvents has in flight at once. */
const READ_EVENTS_AT_ONCE = 32;

/** One call to the server: retried while the server cannot answer (isKurrentUnavailable), then the port's error. */
async function call<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await retryWhileUnavailable(operation, isKurrentUnavailable);
  } catch (error) {
    throw kurrentFailure(error);
  }
}

function isTooLarge(error: unknown): boolean {
  return (
    error instanceof MaxAppendSizeExceededError ||
    error instanceof AppendRecordSizeExceededError ||
    error instanceof TransactionMaxSizeExceededError
  );
}

function streamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function toRecorded(event: KurrentRecordedEvent): RecordedEvent {
  return {
    id: event.id,
    streamName: event.streamId,
    version: Number(event.revision),
    position: Number(event.position?.commit ?? 0n),
    type: event.type,
    data: event.data,
    metadata: (event.metadata as RecordedEvent['metadata'] | undefined) ?? {},
    createdAt: event.created,
  };
}

/**
 * The KurrentDB event store, once the server has answered (the start-up check): a server that cannot be reached
 * or refuses our credentials fails here, not on the first request.
 */
export async function connectKurrentDbEventStore(connectionString: string): Promise<EventStore> {
  const store = createKurrentDbEventStore(connectionString);
  try {
    await store.identity();
    return store;
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

function createKurrentDbEventStore(connectionString: string): EventStore {
  const client = KurrentDBClient.connectionString(connectionString);
  let identity: Promise<string> | null = null;

  /** The id in the identity stream's first event, or undefined where there is no such stream yet. */
  async function storedIdentity(): Promise<string | undefined> {
    return call(async () => {
      try {
        for await (const resolved of client.readStream<{ type: string; data: { identity?: string } }>(IDENTITY_STREAM, {
          direction: FORWARDS,
          fromRevision: START,
          maxCount: 1,
        })) {
          if (resolved.event?.type === IDENTITY_EVENT && typeof resolved.event.data.identity === 'string')
            return resolved.event.data.identity;
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return undefined;
        throw error;
      }
      return undefined;
    });
  }

  async function readIdentity(): Promise<string> {
    const stored = await storedIdentity();
    if (stored) return `kurrentdb:${stored}`;
    // A log named by an earlier version (in the stream's metadata) keeps its name; otherwise a new one.
    const earlier = await call(async () => (await client.getStreamMetadata<{ identity?: string }>(IDENTITY_STREAM)).metadata?.identity);
    const proposed = earlier ?? randomUUID();
    // The event's id is made once, so a retry of an append whose answer was lost is the same append.
    const naming = jsonEvent({ id: randomUUID(), type: IDENTITY_EVENT, data: { identity: proposed } });
    try {
      await call(() => client.appendToStream(IDENTITY_STREAM, naming, { streamState: NO_STREAM }));
      return `kurrentdb:${proposed}`;
    } catch (error) {
      // Another process named the log first: its name holds.
      if (!(error instanceof KurrentWrongExpectedVersionError)) throw error;
    }
    const named = await storedIdentity();
    if (!named)
      throw new Error(
        `KurrentDB: the stream ${IDENTITY_STREAM} exists but does not begin with the log's name (${IDENTITY_EVENT}); it is the site's own and must not be written to`,
      );
    return `kurrentdb:${named}`;
  }

  return {
    async append(streamName, events, { expectedVersion }) {
      if (events.length === 0) throw new Error('append needs at least one event');
      const bytes = appendBytes(events);
      if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(streamName, bytes, MAX_APPEND_BYTES);
      // Ids are made once, before any retry, so that a retried append is recognised as the same one.
      const records = events.map((event) =>
        jsonEvent({
          id: event.id ?? randomUUID(),
          type: event.type,
          data: (event.data ?? null) as never,
          metadata: (event.metadata ?? {}) as never,
        }),
      );
      try {
        const result = await call(() => client.appendToStream(streamName, records, { streamState: streamState(expectedVersion) }));
        return { nextExpectedVersion: Number(result.nextExpectedRevision), position: Number(result.position?.commit ?? 0n) };
      } catch (error) {
        if (error instanceof KurrentWrongExpectedVersionError) {
          const actual = error.actualState === NO_STREAM ? 'no_stream' : Number(error.actualState);
          throw new WrongExpectedVersionError(streamName, expectedVersion, actual);
        }
        if (isTooLarge(error))
          throw new AppendTooLargeError(
            streamName,
            bytes,
            (error as { maxAppendSize?: number; maxSize?: number }).maxAppendSize ??
              (error as { maxSize?: number }).maxSize ??
              MAX_APPEND_BYTES,
          );
        throw error;
      }
    },

    async readStream(streamName, { afterVersion = -1 } = {}) {
      return call(async () => {
        const events: RecordedEvent[] = [];
        try {
          for await (const resolved of client.readStream(streamName, {
            direction: FORWARDS,
            fromRevision: afterVersion < 0 ? START : BigInt(afterVersion + 1),
          })) {
            if (resolved.event) events.push(toRecorded(resolved.event));
          }
        } catch (error) {
          if (error instanceof StreamNotFoundError) return [];
          throw error;
        }
        return events;
      });
    },

    async readEvents(places) {
      const found: (RecordedEvent | null)[] = [];
      // A read per event (a stream read from its version, one event long), a few at a time.
      for (let start = 0; start < places.length; start += READ_EVENTS_AT_ONCE)
        found.push(
          ...(await Promise.all(
            places.slice(start, start + READ_EVENTS_AT_ONCE).map(({ streamName, version }) =>
              call(async () => {
                try {
                  for await (const resolved of client.readStream(streamName, {
                    direction: FORWARDS,
                    fromRevision: BigInt(version),
                    maxCount: 1,
                  }))
                    if (resolved.event && Number(resolved.event.revision) === version) return toRecorded(resolved.event);
                } catch (error) {
                  if (error instanceof StreamNotFoundError) return null;
                  throw error;
                }
                return null;
              }),
            ),
          )),
        );
      return found;
    },

    async backlog(after, cap) {
      return call(async () => {
        let events = 0;
        let oldestAt: Date | null = null;
        const fromPosition = after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };
        // Reading from a position includes the event at it, when there is one: only those past it count.
        for await (const resolved of client.readAll({
          direction: FORWARDS,
          fromPosition,
          maxCount: cap + 1,
          filter: excludeSystemEvents(),
        })) {
          const event = resolved.event;
          if (!event || Number(event.position.commit) <= after || event.type.startsWith('$')) continue;
          if (events === cap) break;
          oldestAt ??= event.created;
          events++;
        }
        return { events, oldestAt };
      });
    },

    identity() {
      identity ??= readIdentity().catch((error: unknown) => {
        identity = null;
        throw error;
      });
      return identity;
    },

    async *subscribeToAll({ after, signal }) {
      // An already aborted signal never fires 'abort', which would leave an idle subscription open for good.
      if (signal?.aborted) return;
      const subscription = client.subscribeToAll({
        fromPosition: after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) },
        filter: excludeSystemEvents(),
      });
      const stop = () => void subscription.unsubscribe();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        for await (const resolved of subscription) {
          if (signal?.aborted) return;
          if (resolved.event && !resolved.event.type.startsWith('$')) yield toRecorded(resolved.event);
        }
      } catch (error) {
        throw kurrentFailure(error);
      } finally {
        signal?.removeEventListener('abort', stop);
        await subscription.unsubscribe();
      }
    },

    async headPosition() {
      return call(async () => {
        // Filtered on the server: the newest records of the log are often system events ($statistics, projections).
        for await (const resolved of client.readAll({
          direction: BACKWARDS,
          fromPosition: END,
          maxCount: 1,
          filter: excludeSystemEvents(),
        })) {
          if (resolved.event) return Number(resolved.event.position.commit);
        }
        return 0;
      });
    },

    async close() {
      await client.dispose();
      // dispose() ends the calls in flight but leaves the gRPC channel (and its sockets) open, and the client has no
      // public way to close it: getChannel is protected (the client itself closes a failed channel the same way).
      const channel = await (client as unknown as { getChannel(): Promise<{ close(): void }> }).getChannel();
      channel.close();
    },
  };
}
