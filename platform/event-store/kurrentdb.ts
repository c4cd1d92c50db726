/**
 * The KurrentDB event store (scale-out), on @kurrent/kurrentdb-client. Stream
 * revisions are our versions; the commit position in `$all` is our global
 * position (a byte offset, far below 2^53 for any realistic log). System events
 * (types starting with `$`) never reach subscribers.
 */
import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendStreamState,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { type EventStore, type ExpectedVersion, type RecordedEvent, WrongExpectedVersionError } from './port';

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

export function createKurrentDbEventStore(connectionString: string): EventStore {
  const client = KurrentDBClient.connectionString(connectionString);

  return {
    async append(streamName, events, { expectedVersion }) {
      if (events.length === 0) throw new Error('append needs at least one event');
      try {
        const result = await client.appendToStream(
          streamName,
          events.map((event) =>
            jsonEvent({ id: event.id ?? randomUUID(), type: event.type, data: (event.data ?? null) as never, metadata: (event.metadata ?? {}) as never }),
          ),
          { streamState: streamState(expectedVersion) },
        );
        return { nextExpectedVersion: Number(result.nextExpectedRevision), position: Number(result.position?.commit ?? 0n) };
      } catch (error) {
        if (error instanceof KurrentWrongExpectedVersionError) {
          const actual = error.actualState === NO_STREAM ? 'no_stream' : Number(error.actualState);
          throw new WrongExpectedVersionError(streamName, expectedVersion, actual);
        }
        throw error;
      }
    },

    async readStream(streamName, { afterVersion = -1 } = {}) {
      const events: RecordedEvent[] = [];
      try {
        for await (const resolved of client.readStream(streamName, { direction: FORWARDS, fromRevision: afterVersion < 0 ? START : BigInt(afterVersion + 1) })) {
          if (resolved.event) events.push(toRecorded(resolved.event));
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return events;
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
      } finally {
        signal?.removeEventListener('abort', stop);
        await subscription.unsubscribe();
      }
    },

    async headPosition() {
      // Filtered on the server: the newest records of the log are often system events ($statistics, projections).
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, filter: excludeSystemEvents() })) {
        if (resolved.event) return Number(resolved.event.position.commit);
      }
      return 0;
    },

    async close() {
      await client.dispose();
    },
  };
}
