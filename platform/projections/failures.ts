/**
 * Transient or not: a page that failed because a store was out of reach for a moment is tried again (a lost
 * connection, a server restarting, a MongoDB primary change, a deadlock), and one that failed on its own merits (a
 * projection's bug, data it cannot hold) stops its projection.
 */
import { EventStoreUnavailableError } from '../event-store/port';

/** PostgreSQL: connection exceptions, shutdowns and "cannot connect now", too many connections, serialization and deadlock. */
const TRANSIENT_SQL_STATES = /^(08|57P0[123]|53300|40001|40P01)/;
const TRANSIENT_NODE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** MongoDB: a network error, no server to select, or a write the driver labels as worth another try. */
const TRANSIENT_MONGO_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'PoolClearedError',
]);
const TRANSIENT_MESSAGES =
  /Connection terminated|connection (?:is )?closed|Client has encountered a connection error|timeout exceeded when trying to connect|not ?primary|node is recovering|interrupted at shutdown/i;

export function isTransient(error: unknown): boolean {
  if (error instanceof EventStoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQL_STATES.test(code) || TRANSIENT_NODE_CODES.has(code))) return true;
  if (TRANSIENT_MONGO_NAMES.has(error.name)) return true;
  const labelled = (error as { hasErrorLabel?: (label: string) => boolean }).hasErrorLabel;
  if (typeof labelled === 'function' && (labelled.call(error, 'RetryableWriteError') || labelled.call(error, 'TransientTransactionError')))
    return true;
  if (TRANSIENT_MESSAGES.test(error.message)) return true;
  return error.cause !== undefined && error.cause !== error && isTransient(error.cause);
}
