/**
 * How the KurrentDB adapter reads the client's errors, built as the client builds them from the server's answers
 * (the contract suite, which needs a server, runs only with KURRENTDB_URL). During an election or a start the
 * server answers a batch append, the client's usual append, with "Server Is Not Ready" or "Server Is Busy" as a
 * status the client does not recognise: the adapter retries those like an unreachable server, and access denied
 * becomes the port's unavailable store (503) with a message that names the credentials.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  DeadlineExceededError,
  NotLeaderError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { isKurrentUnavailable, kurrentFailure } from '../../platform/event-store/kurrentdb';
import { EventStoreUnavailableError } from '../../platform/event-store/port';

const require = createRequire(import.meta.url);
// The client's own decoding of a batch append's error status, and the protobuf messages the server sends.
const { unpackToCommandError } = require('@kurrent/kurrentdb-client/dist/streams/appendToStream/unpackError.js') as {
  unpackToCommandError(status: unknown, stream: string): unknown;
};
const { Status } = require('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/status_pb.js') as {
  Status: new () => { setCode(code: number): unknown; setMessage(message: string): unknown; setDetails(details: unknown): unknown };
};
const { Any } = require('google-protobuf/google/protobuf/any_pb.js') as { Any: new () => { pack(bytes: Uint8Array, name: string): void } };
const { Empty } = require('google-protobuf/google/protobuf/empty_pb.js') as { Empty: new () => { serializeBinary(): Uint8Array } };
const { AccessDenied } = require('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb.js') as {
  AccessDenied: new () => { serializeBinary(): Uint8Array };
};

/** A batch append's error as the server writes it (Streams.BatchAppend: NotHandled has an Empty as its details). */
function batchAppendError(
  message: string,
  details: { bytes: Uint8Array; name: string } = { bytes: new Empty().serializeBinary(), name: 'google.protobuf.Empty' },
) {
  const status = new Status();
  status.setCode(14);
  status.setMessage(message);
  const any = new Any();
  any.pack(details.bytes, details.name);
  status.setDetails(any);
  return unpackToCommandError(status, 'feed-1');
}

describe('KurrentDB failures', () => {
  it('retries what the server answers while it cannot take a write: not ready, busy, no leader yet', () => {
    for (const message of ['Server Is Not Ready', 'Server Is Busy', 'Server Is Too Busy', 'No leader info available in response']) {
      const error = batchAppendError(message);
      expect(error).toBeInstanceOf(UnknownError);
      expect(isKurrentUnavailable(error), message).toBe(true);
    }
  });

  it('retries an unreachable server, another leader, a deadline and the server’s own timeout', () => {
    expect(isKurrentUnavailable(new UnavailableError(undefined, 'connection refused'))).toBe(true);
    expect(isKurrentUnavailable(new DeadlineExceededError())).toBe(true);
    expect(isKurrentUnavailable(new TimeoutError(undefined, 'Operation timed out'))).toBe(true);
    expect(isKurrentUnavailable(Object.create(NotLeaderError.prototype))).toBe(true);
  });

  it('does not retry what another try would not change', () => {
    expect(isKurrentUnavailable(new UnknownError(undefined, 'Unexpected OperationResult: InvalidTransaction'))).toBe(false);
    expect(isKurrentUnavailable(new AccessDeniedError())).toBe(false);
    expect(isKurrentUnavailable(Object.create(WrongExpectedVersionError.prototype))).toBe(false);
    expect(isKurrentUnavailable(new Error('Server Is Not Ready'))).toBe(false);
  });

  it('makes access denied the unavailable store, naming the credentials, and leaves other errors as they are', () => {
    const denied = batchAppendError('Access Denied', {
      bytes: new AccessDenied().serializeBinary(),
      name: 'event_store.client.AccessDenied',
    });
    expect(denied).toBeInstanceOf(AccessDeniedError);
    const failure = kurrentFailure(denied);
    expect(failure).toBeInstanceOf(EventStoreUnavailableError);
    expect((failure as Error).message).toMatch(/KurrentDB denied access.*KURRENTDB_URL/u);
    expect((failure as Error).cause).toBeInstanceOf(Error);
    const other = new UnknownError(undefined, 'something else');
    expect(kurrentFailure(other)).toBe(other);
  });
});
