/**
 * The supported subset of MongoDB's query and update language, checked and parsed
 * before any I/O by every adapter, so that all adapters refuse the same things.
 *
 * Beyond "operator not supported", a few valid MongoDB constructs are refused
 * because an adapter could not reproduce MongoDB's answer exactly:
 * - numeric path segments ('items.0'): MongoDB reads them as array positions or
 *   field names depending on the data;
 * - comparing with embedded documents (and $addToSet/$pull of documents with more
 *   than one field): MongoDB compares field order, which JSONB does not keep;
 * - undefined in filters (the driver would drop the condition and match everything).
 */
import { compileRegex, type CompiledRegex } from './regex';
import {
  UnstorableTextError,
  UnsupportedQueryError,
  type Filter,
  type FindOptions,
  type IndexKeys,
  type IndexOptions,
  type Sort,
  type Update,
} from './port';

export type Path = readonly string[];
/** Scalars, Dates and arrays of them: what filters compare with. */
export type Operand = string | number | boolean | null | Date | Operand[];
export type RangeOperand = string | number | boolean | Date;

export type Condition =
  | { op: 'eq' | 'ne'; value: Operand }
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; value: RangeOperand }
  | { op: 'in' | 'nin'; values: Operand[] }
  | { op: 'exists'; value: boolean }
  | { op: 'regex'; regex: CompiledRegex };

export type Predicate =
  | { kind: 'and' | 'or'; items: Predicate[] }
  | { kind: 'field'; path: Path; condition: Condition }
  /** $text: every word must appear (lowercased letters and digits); none matches nothing. */
  | { kind: 'text'; words: string[] };

export type UpdateOperation = { op: 'set'; path: Path; value: unknown } | { op: 'unset'; path: Path };

export interface ParsedFindOptions {
  sort: [Path, 1 | -1][];
  /** 0 means no limit, as in MongoDB. */
  limit: number;
  skip: number;
  /** Top-level fields to read besides _id; null reads whole documents. */
  fields: string[] | null;
}

export interface ParsedIndex {
  keys: [Path, 1 | -1 | 'text'][];
  unique: boolean;
  name: string;
}

const COMPARISON_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options']);
/** Operators that make MongoDB's $pull treat its argument as a condition on the element itself. */
const PATH_OPERATORS = new Set([...COMPARISON_OPERATORS, '$not', '$size', '$type', '$all', '$elemMatch', '$mod', '$bitsAllSet']);
const UPDATE_OPERATORS = new Set(['$set', '$unset']);
const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,59}$/;

function unsupported(message: string): never {
  throw new UnsupportedQueryError(message);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function pathKey(path: Path): string {
  return path.join('.');
}

export function parseCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name) || name.startsWith('system.')) {
    unsupported(`collection name '${name}' is not supported (letters, digits, _ . -, at most 60)`);
  }
  return name;
}

export function parsePath(key: string): Path {
  const segments = key.split('.');
  for (const segment of segments) {
    if (segment === '') unsupported(`path '${key}' has an empty segment`);
    if (segment.startsWith('$')) unsupported(`path '${key}': positional and $-prefixed segments are not supported`);
    if (/^\d+$/.test(segment)) unsupported(`path '${key}': numeric segments (array positions) are not supported`);
    if (segment.includes('\0')) unsupported(`path '${key}' contains NUL`);
  }
  return segments;
}

// Lone surrogates cannot be stored as UTF-8 (BSON) nor in JSONB. (String.prototype.isWellFormed: ES2024, in Node 20.)
const wellFormed = (value: string) => (value as string & { isWellFormed(): boolean }).isWellFormed();

function checkString(value: string, where: string): void {
  if (value.includes('\0')) throw new UnstorableTextError(`${where}: strings containing NUL are not supported`);
  if (!wellFormed(value)) throw new UnstorableTextError(`${where}: strings with unpaired surrogates are not supported`);
}

function checkNumber(value: number, where: string): void {
  if (!Number.isFinite(value)) unsupported(`${where}: ${value} is not supported (JSON has no NaN or Infinity)`);
}

function checkDate(value: Date, where: string): void {
  if (Number.isNaN(value.getTime())) unsupported(`${where}: invalid Date`);
}

/** Checks a string, number or Date as stored and compared values must be; false for a value of any other kind. */
function checkScalar(value: unknown, where: string): boolean {
  if (typeof value === 'string') checkString(value, where);
  else if (typeof value === 'number') checkNumber(value, where);
  else if (value instanceof Date) checkDate(value, where);
  else return false;
  return true;
}

/**
 * A value that may be stored: JSON values plus Date; object fields that are undefined are left out, as JSON does.
 * Returns whether it holds a Date (the PostgreSQL adapter encodes only those apart), so that a value is walked once.
 */
function checkStoredValue(value: unknown, where: string): boolean {
  if (value === null || typeof value === 'boolean') return false;
  if (checkScalar(value, where)) return value instanceof Date;
  let holdsDate = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || value[i] === undefined) unsupported(`${where}: arrays may not contain undefined`);
      if (checkStoredValue(value[i], where)) holdsDate = true;
    }
    return holdsDate;
  }
  if (isPlainObject(value)) {
    // A plain object inherits no enumerable field: for-in walks its own, without an array of entries per object.
    for (const key in value) {
      const field = value[key];
      if (key === '' || key.startsWith('$') || key.includes('.') || key.includes('\0')) {
        unsupported(
          `${where}: field name '${key}' is not supported (no leading $, no dots; update modifiers such as $each are not supported)`,
        );
      }
      if (field !== undefined && checkStoredValue(field, where)) holdsDate = true;
    }
    return holdsDate;
  }
  unsupported(`${where}: values of type ${describe(value)} are not supported (JSON values and Date only)`);
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  return (value as object).constructor?.name ?? 'object';
}

export function checkDocument(document: unknown, where: string): asserts document is { _id: string } {
  checkedHoldsDate(document, where);
}

/** Checks a document as checkDocument does, and says whether it holds a Date: one walk where both are needed. */
export function checkedHoldsDate(document: unknown, where: string): boolean {
  if (!isPlainObject(document)) unsupported(`${where}: a document must be a plain object`);
  if (typeof document._id !== 'string') unsupported(`${where}: _id must be a string`);
  return checkStoredValue(document, where);
}

function parseOperand(value: unknown, where: string): Operand {
  if (value === undefined) unsupported(`${where}: undefined is not a value (it would match everything in MongoDB's driver)`);
  if (value === null || typeof value === 'boolean') return value;
  if (checkScalar(value, where)) return value as string | number | Date;
  if (Array.isArray(value)) return value.map((item) => parseOperand(item, where));
  if (value instanceof RegExp) unsupported(`${where}: a regular expression is only supported as a field condition or with $regex`);
  if (isPlainObject(value))
    unsupported(`${where}: comparing with embedded documents is not supported (MongoDB compares their field order)`);
  return unsupported(`${where}: values of type ${describe(value)} are not supported`);
}

function parseRangeOperand(value: unknown, where: string): RangeOperand {
  const operand = parseOperand(value, where);
  if (operand === null || Array.isArray(operand)) unsupported(`${where}: range operators take a string, number, boolean or Date`);
  return operand;
}

function regexFromRegExp(value: RegExp, where: string): CompiledRegex {
  const flags = value.flags.replace('u', '');
  if (value.flags.includes('u')) unsupported(`${where}: the u flag is not supported`);
  return compileRegex(value.source, flags);
}

/** Words of a $text search past this many are ignored: a search box's query, not a document. */
export const MAX_SEARCH_WORDS = 16;

/** The words a $text search looks for: runs of letters and digits, lowercased. */
export function searchWords(search: string): string[] {
  return (
    search
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, MAX_SEARCH_WORDS);
}

export function parseFilter(filter: Filter | undefined): Predicate {
  const predicate = parseFilterNode(filter);
  let texts = 0;
  const visit = (node: Predicate, underOr: boolean): void => {
    if (node.kind === 'text') {
      if (underOr) unsupported('$text cannot be used under $or');
      texts++;
    } else if (node.kind !== 'field') node.items.forEach((item) => visit(item, underOr || node.kind === 'or'));
  };
  visit(predicate, false);
  if (texts > 1) unsupported('a filter can hold at most one $text');
  return predicate;
}

function parseText(value: unknown): Predicate {
  if (!isPlainObject(value) || Object.keys(value).some((key) => key !== '$search') || typeof value.$search !== 'string') {
    unsupported('$text needs { $search: string } and nothing else');
  }
  checkString(value.$search, '$text.$search');
  return { kind: 'text', words: searchWords(value.$search) };
}

function parseFilterNode(filter: Filter | undefined): Predicate {
  if (filter === undefined) return { kind: 'and', items: [] };
  if (!isPlainObject(filter)) unsupported('a filter must be a plain object');
  const items: Predicate[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) unsupported(`${key} needs a non-empty array of filters`);
      items.push({ kind: key === '$and' ? 'and' : 'or', items: value.map((item) => parseFilterNode(item as Filter)) });
    } else if (key === '$text') {
      items.push(parseText(value));
    } else if (key.startsWith('$')) {
      unsupported(`query operator ${key} is not supported`);
    } else {
      const path = parsePath(key);
      items.push(...parseConditions(value, key).map((condition): Predicate => ({ kind: 'field', path, condition })));
    }
  }
  return { kind: 'and', items };
}

function parseConditions(value: unknown, where: string): Condition[] {
  if (value instanceof RegExp) return [{ op: 'regex', regex: regexFromRegExp(value, where) }];
  if (!isPlainObject(value) || !Object.keys(value).some((key) => key.startsWith('$'))) {
    return [{ op: 'eq', value: parseOperand(value, where) }];
  }
  const conditions: Condition[] = [];
  for (const [operator, operand] of Object.entries(value)) {
    if (!operator.startsWith('$')) unsupported(`${where}: cannot mix operators and field names`);
    if (!COMPARISON_OPERATORS.has(operator)) unsupported(`${where}: operator ${operator} is not supported`);
    const at = `${where}.${operator}`;
    switch (operator) {
      case '$eq':
      case '$ne':
        conditions.push({ op: operator === '$eq' ? 'eq' : 'ne', value: parseOperand(operand, at) });
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        conditions.push({ op: operator.slice(1) as 'gt' | 'gte' | 'lt' | 'lte', value: parseRangeOperand(operand, at) });
        break;
      case '$in':
      case '$nin':
        if (!Array.isArray(operand)) unsupported(`${at} needs an array`);
        conditions.push({ op: operator === '$in' ? 'in' : 'nin', values: operand.map((item) => parseOperand(item, at)) });
        break;
      case '$exists':
        if (typeof operand !== 'boolean') unsupported(`${at} needs true or false`);
        conditions.push({ op: 'exists', value: operand });
        break;
      case '$regex': {
        const options = value.$options;
        if (options !== undefined && typeof options !== 'string') unsupported(`${where}.$options needs a string`);
        if (operand instanceof RegExp) {
          if (options !== undefined) unsupported(`${where}: give options either as RegExp flags or as $options`);
          conditions.push({ op: 'regex', regex: regexFromRegExp(operand, at) });
        } else if (typeof operand === 'string') {
          checkString(operand, at);
          conditions.push({ op: 'regex', regex: compileRegex(operand, options ?? '') });
        } else {
          unsupported(`${at} needs a string or RegExp`);
        }
        break;
      }
      case '$options':
        if (!('$regex' in value)) unsupported(`${where}: $options without $regex`);
        break;
    }
  }
  return conditions;
}

export function parseFindOptions(options: FindOptions | undefined): ParsedFindOptions {
  const limit = options?.limit ?? 0;
  const skip = options?.skip ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0) unsupported('limit must be a non-negative integer');
  if (!Number.isSafeInteger(skip) || skip < 0) unsupported('skip must be a non-negative integer');
  return { sort: parseKeys(options?.sort ?? {}, 'sort'), limit, skip, fields: parseFields(options?.fields) };
}

function parseFields(fields: readonly string[] | undefined): string[] | null {
  if (fields === undefined) return null;
  if (!Array.isArray(fields)) unsupported('fields must be an array of field names');
  for (const field of fields) {
    if (typeof field !== 'string' || parsePath(field).length !== 1)
      unsupported(`fields: '${String(field)}' must be a top-level field name`);
  }
  return [...new Set(fields.filter((field) => field !== '_id'))];
}

function parseKeys(keys: Sort, where: string): [Path, 1 | -1][] {
  if (!isPlainObject(keys)) unsupported(`${where} must be a plain object`);
  return Object.entries(keys).map(([key, direction]) => {
    if (direction !== 1 && direction !== -1) unsupported(`${where}: direction of '${key}' must be 1 or -1`);
    return [parsePath(key), direction];
  });
}

export function parseIndex(keys: IndexKeys, options: IndexOptions | undefined): ParsedIndex {
  const textKeys = isPlainObject(keys) ? Object.values(keys).filter((direction) => direction === 'text').length : 0;
  if (textKeys > 0) {
    if (textKeys !== Object.keys(keys).length) unsupported('a text index has only text keys');
    if (options?.unique) unsupported('a text index cannot be unique');
    const paths = Object.keys(keys).map(parsePath);
    if (paths.some((path) => path[0] === '_id')) unsupported('_id cannot be in a text index');
    return {
      keys: paths.map((path) => [path, 'text']),
      unique: false,
      name: options?.name ?? paths.map((path) => `${pathKey(path)}_text`).join('_'),
    };
  }
  const parsed = parseKeys(keys as Sort, 'index keys');
  if (parsed.length === 0) unsupported('an index needs at least one key');
  if (options?.unique !== undefined && typeof options.unique !== 'boolean') unsupported('unique must be a boolean');
  if (options?.name !== undefined && (typeof options.name !== 'string' || options.name === ''))
    unsupported('index name must be a non-empty string');
  // MongoDB's default index name.
  const name = options?.name ?? parsed.map(([path, direction]) => `${pathKey(path)}_${direction}`).join('_');
  return { keys: parsed, unique: options?.unique ?? false, name };
}

export function parseUpdate(update: Update): UpdateOperation[] {
  if (!isPlainObject(update)) unsupported('an update must be a plain object');
  const entries = Object.entries(update);
  if (entries.length === 0) unsupported('an update needs at least one operator');
  const operations: UpdateOperation[] = [];
  for (const [operator, fields] of entries) {
    if (!operator.startsWith('$')) unsupported('an update must use operators; use replaceOne to replace a document');
    if (!UPDATE_OPERATORS.has(operator)) unsupported(`update operator ${operator} is not supported`);
    if (!isPlainObject(fields)) unsupported(`${operator} needs an object of paths`);
    for (const [key, value] of Object.entries(fields)) {
      // The MongoDB adapter drops undefined (ignoreUndefined), so both adapters skip these fields.
      if (value === undefined) continue;
      const path = parsePath(key);
      if (path[0] === '_id') unsupported(`${operator} on '${key}': _id cannot be changed`);
      const where = `${operator}.${key}`;
      switch (operator) {
        case '$set':
          checkStoredValue(value, where);
          operations.push({ op: 'set', path, value });
          break;
        case '$unset':
          operations.push({ op: 'unset', path });
          break;
      }
    }
  }
  const paths = operations.map((operation) => pathKey(operation.path)).sort();
  for (let i = 1; i < paths.length; i++) {
    const previous = paths[i - 1] ?? '';
    const current = paths[i] ?? '';
    if (current === previous || current.startsWith(`${previous}.`))
      unsupported(`updating '${current}' and '${previous}' together would conflict`);
  }
  return operations;
}

/**
 * The fields MongoDB copies from an upsert's filter into the new document: the
 * equality conditions of the top level and of $and. Shapes that MongoDB's query
 * optimiser may or may not turn into equalities, depending on version, are refused.
 */
export function upsertSeed(predicate: Predicate): [Path, Operand][] {
  const seed: [Path, Operand][] = [];
  const visit = (node: Predicate): void => {
    if (node.kind === 'text') unsupported('upsert with $text is not supported');
    if (node.kind !== 'field') {
      if (node.kind === 'and') node.items.forEach(visit);
      else if (node.items.length === 1) unsupported('upsert with a single-clause $or is not supported (MongoDB versions differ)');
      return;
    }
    const { condition } = node;
    if (condition.op === 'eq') seed.push([node.path, condition.value]);
    if (condition.op === 'in' && condition.values.length === 1)
      unsupported('upsert with a single-value $in is not supported (MongoDB versions differ)');
  };
  visit(predicate);
  const keys = seed.map(([path]) => pathKey(path)).sort();
  for (let i = 1; i < keys.length; i++) {
    const previous = keys[i - 1] ?? '';
    const current = keys[i] ?? '';
    if (current === previous || current.startsWith(`${previous}.`)) unsupported(`upsert filter sets '${current}' twice`);
  }
  const id = seed.find(([path]) => pathKey(path) === '_id');
  if (id && typeof id[1] !== 'string') unsupported('upsert: _id must be a string');
  if (seed.some(([path]) => path[0] === '_id' && path.length > 1)) unsupported('upsert: _id must be a string');
  return seed;
}

/** A replacement keeps its _id: one that differs from the _id the filter selects can never succeed. */
export function checkReplacement(predicate: Predicate, document: { _id: string }): void {
  const items = predicate.kind === 'and' ? predicate.items : [];
  for (const item of items) {
    if (item.kind === 'field' && pathKey(item.path) === '_id' && item.condition.op === 'eq' && item.condition.value !== document._id) {
      unsupported('replaceOne: the replacement must keep the _id the filter selects');
    }
  }
}
