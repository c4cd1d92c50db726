/**
 * Whether a store refused a value it was given, rather than failing: the document store's own refusal of text no
 * store can hold (on either adapter), PostgreSQL's SQLSTATE class 22 "data exception" (untranslatable character
 * 22P05, invalid byte sequence 22021, invalid JSON text 22P02, value too long 22001, …) and BSON refusing to encode a
 * value (a NUL in a key or a pattern). The schemas refuse what is known to cause these; this catches what slips past
 * them, so that it is the caller's 400 and not our 500.
 */
import pg from 'pg';
import { BSON } from 'mongodb';
import { UnstorableTextError } from './document-store/port';

const DATA_EXCEPTION_CLASS = '22';

/**
 * The refusal's code (the SQLSTATE, `BSON` or `unstorable-text`), or null for any other error. Only the code: the
 * stores' messages and details quote the refused value, which may be anything the caller sent.
 */
export function refusedInputCode(error: unknown): string | null {
  if (error instanceof UnstorableTextError) return 'unstorable-text';
  if (error instanceof pg.DatabaseError) return error.code?.startsWith(DATA_EXCEPTION_CLASS) ? error.code : null;
  return BSON.BSONError.isBSONError(error) ? 'BSON' : null;
}
