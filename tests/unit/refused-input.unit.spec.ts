import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { BSON } from 'mongodb';
import { refusedInputCode } from '../../platform/refused-input';
import { UnstorableTextError, UnsupportedQueryError } from '../../platform/document-store/port';

function databaseError(code: string) {
  const error = new pg.DatabaseError('refused', 0, 'error');
  error.code = code;
  return error;
}

describe('what counts as input a store refused', () => {
  it("is PostgreSQL's data exceptions (SQLSTATE class 22), by their code", () => {
    for (const code of ['22P05', '22021', '22P02', '22001']) expect(refusedInputCode(databaseError(code))).toBe(code);
  });

  it('is what BSON refuses to encode, on the MongoDB read store', () => {
    let refusal: unknown;
    try {
      BSON.serialize({ 'a\u0000b': 1 });
    } catch (error) {
      refusal = error;
    }
    expect(refusedInputCode(refusal)).toBe('BSON');
  });

  it("is the document store's own refusal of text no store can hold", () => {
    expect(refusedInputCode(new UnstorableTextError('name: strings containing NUL are not supported'))).toBe('unstorable-text');
  });

  it('is not any other failure: ours stay 500s', () => {
    for (const error of [
      databaseError('23505'),
      databaseError('57P01'),
      new UnsupportedQueryError('$where is not supported'),
      new Error('boom'),
      new TypeError('x'),
      null,
    ]) {
      expect(refusedInputCode(error)).toBeNull();
    }
  });
});
