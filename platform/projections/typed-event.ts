/**
 * Events as their streams hold them: projections and the mail runner dispatch on the stream type
 * and get the event narrowed to that stream's events, instead of testing names and casting.
 */
import type { RecordedEvent } from '../event-store/port';
import { parseStreamName, type StreamEvents, type StreamType } from '../../shared/streams';

/** An event of a known stream type, with the stream's id. */
export type TypedEvent = { [T in StreamType]: { stream: T; id: string; event: RecordedEvent & StreamEvents[T] } }[StreamType];

/**
 * The one place that trusts the store: every event of `<type>-<id>` was appended by that stream's
 * decider (or the registration's claim), so it is one of `StreamEvents[type]`. Null for streams of
 * no known type (tests append their own).
 */
export function typedEvent(recorded: RecordedEvent): TypedEvent | null {
  const stream = parseStreamName(recorded.streamName);
  // The cast is that trust: nothing in the store's types ties an event's type to its stream's name.
  return stream && ({ stream: stream.type, id: stream.id, event: recorded } as TypedEvent);
}
