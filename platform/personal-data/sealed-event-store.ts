/**
 * An event store that keeps personal data sealed in the log (crypto-shredding; docs/domain/members.md#erasure).
 *
 * On append, the personal fields of each event (shared/personal-data.ts) leave its data and are stored encrypted
 * with the stream's key (AES-256-GCM, bound to the stream and the event type) under `_sealed`. On read, they are
 * decrypted back into place; once the key is destroyed, the reader gets the placeholders instead. So commands,
 * projections and replays all see plain events, and after an erasure none of them can see the member's data again.
 *
 * A member's words in another's stream (a report's reason) are sealed the same way with the writer's own account key,
 * under `_sealedBy`, so they go with the writer.
 *
 * The event that erases a member destroys their keys as it passes through the subscription, before anyone reads
 * past it: the API destroys them right after appending it, and this makes sure even if that process died between.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/port';
import {
  erasesStream,
  erasureOf,
  keyOwner,
  personalFields,
  writerFields,
  writerPlaceholders,
  type PersonalFields,
} from '../../shared/personal-data';
import { parseStreamName } from '../../shared/streams';
import type { PersonalDataKeys } from './keys';

type Sealed = { v: 1; iv: string; data: string };
/** Fields sealed with the key of another stream than the event's: its writer's account (`member-<id>`). */
type SealedBy = Sealed & { stream: string };
type Data = Record<string, unknown>;

const TAG_BYTES = 16;

function getPath(data: Data, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, part) => (value !== null && typeof value === 'object' ? (value as Data)[part] : undefined), data);
}

/** A copy of `data` with the value at `path` set (or removed, for undefined); parents are copied, never mutated. */
function withPath(data: Data, path: string, value: unknown): Data {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const next = rest.length === 0 ? value : withPath((data[head] as Data | undefined) ?? {}, rest.join('.'), value);
  const copy = { ...data };
  if (next === undefined) delete copy[head];
  else copy[head] = next;
  return copy;
}

/** `keyStream`: the stream whose key seals, when not the event's own (bound into the authenticated data too). */
function seal(key: Buffer, streamName: string, type: string, values: Data, keyStream?: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(keyStream ? `${streamName}\n${type}\n${keyStream}` : `${streamName}\n${type}`));
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(values)), cipher.final(), cipher.getAuthTag()]);
  return { v: 1, iv: iv.toString('base64'), data: encrypted.toString('base64') };
}

function unseal(key: Buffer, streamName: string, type: string, sealed: Sealed, keyStream?: string): Data {
  const bytes = Buffer.from(sealed.data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(keyStream ? `${streamName}\n${type}\n${keyStream}` : `${streamName}\n${type}`));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return JSON.parse(
    Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8'),
  ) as Data;
}

function placeholders(fields: PersonalFields, streamName: string): Data {
  const streamId = parseStreamName(streamName)?.id ?? streamName;
  return Object.fromEntries(
    Object.entries(fields).map(([path, placeholder]) => [path, typeof placeholder === 'function' ? placeholder(streamId) : placeholder]),
  );
}

export function sealPersonalData(inner: EventStore, keys: PersonalDataKeys): EventStore {
  /** Seals the fields its writer's key seals (a report's reason) under `_sealedBy`; the event as it was without any. */
  async function sealWritten(streamName: string, event: NewEvent): Promise<NewEvent> {
    let data = event.data as Data;
    const written = data !== null && typeof data === 'object' ? writerFields(streamName, event.type, data) : null;
    if (!written) return event;
    const values: Data = {};
    for (const path of Object.keys(written.fields)) {
      const value = getPath(data, path);
      if (value === undefined) continue;
      values[path] = value;
      data = withPath(data, path, undefined);
    }
    if (Object.keys(values).length === 0) return event;
    const key = await keys.forAppend(written.keyStream, { memberId: written.writerId, scope: 'account' });
    const sealedBy: SealedBy = { ...seal(key, streamName, event.type, values, written.keyStream), stream: written.keyStream };
    return { ...event, data: { ...data, _sealedBy: sealedBy } };
  }

  async function sealEvent(streamName: string, unsealed: NewEvent, newStream: boolean): Promise<NewEvent> {
    const event = await sealWritten(streamName, unsealed);
    const fields = personalFields(streamName, event.type);
    let data = event.data as Data;
    if (!fields || data === null || typeof data !== 'object') return event;
    const values: Data = {};
    for (const path of Object.keys(fields)) {
      const value = getPath(data, path);
      if (value === undefined) continue;
      values[path] = value;
      data = withPath(data, path, undefined);
    }
    if (Object.keys(values).length === 0) return event;
    const owner = keyOwner(streamName, event.data as Data)!;
    const key = await keys.forAppend(streamName, owner, newStream);
    return { ...event, data: { ...data, _sealed: seal(key, streamName, event.type, values) } };
  }

  /** Events stored before a field was sealed hold it in the clear, and read as they are. */
  async function openEvent(recorded: RecordedEvent, replaying = false): Promise<RecordedEvent> {
    const { _sealed: sealed, _sealedBy: sealedBy, ...rest } = (recorded.data ?? {}) as Data & { _sealed?: Sealed; _sealedBy?: SealedBy };
    if (!sealed && !sealedBy) return recorded;
    let data: Data = rest;
    if (sealed) {
      const found = await keys.find(recorded.streamName, replaying);
      const values = found?.key
        ? unseal(found.key, recorded.streamName, recorded.type, sealed)
        : placeholders(personalFields(recorded.streamName, recorded.type) ?? {}, recorded.streamName);
      for (const [path, value] of Object.entries(values)) data = withPath(data, path, value);
    }
    if (sealedBy) {
      const found = await keys.find(sealedBy.stream, replaying);
      const values = found?.key
        ? unseal(found.key, recorded.streamName, recorded.type, sealedBy, sealedBy.stream)
        : placeholders(writerPlaceholders(recorded.streamName, recorded.type), recorded.streamName);
      for (const [path, value] of Object.entries(values)) data = withPath(data, path, value);
    }
    return { ...recorded, data };
  }

  return {
    async append(streamName, events, options) {
      const sealed = await Promise.all(events.map((event) => sealEvent(streamName, event, options.expectedVersion === 'no_stream')));
      return inner.append(streamName, sealed, options);
    },
    async readStream(streamName, options) {
      return Promise.all((await inner.readStream(streamName, options)).map((recorded) => openEvent(recorded)));
    },
    async readEvents(places) {
      return Promise.all((await inner.readEvents(places)).map((recorded) => recorded && openEvent(recorded)));
    },
    async *subscribeToAll(options) {
      for await (const recorded of inner.subscribeToAll(options)) {
        const erasure = erasureOf(recorded.streamName, recorded);
        if (erasure) await keys.destroy(erasure.memberId, erasure.content);
        if (erasesStream(recorded.streamName, recorded)) await keys.destroyStream(recorded.streamName);
        yield await openEvent(recorded, true);
      }
    },
    headPosition: () => inner.headPosition(),
    backlog: (after, cap) => inner.backlog(after, cap),
    identity: () => inner.identity(),
    close: () => inner.close(),
  };
}
