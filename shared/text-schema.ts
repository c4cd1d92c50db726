/**
 * The one schema for text in any input: bodies, query strings and path parameters. It refuses U+0000 and UTF-16
 * surrogates without their pair, which no keyboard types and PostgreSQL cannot store (its text has no NUL, its JSON
 * parser refuses a lone surrogate), so they are a 400 naming the field instead of a failed write.
 */
import * as v from 'valibot';

export const FORBIDDEN_CHARACTERS_MESSAGE = 'Text contains characters that are not allowed';

/** With the `u` flag a well-formed surrogate pair is one code point, so the class matches only unpaired halves. */
const FORBIDDEN_CHARACTER = /[\u0000\ud800-\udfff]/u;

export const hasNoForbiddenCharacters = (value: string) => !FORBIDDEN_CHARACTER.test(value);

/** A string without forbidden characters; `message` is the field's own message for a value that is not a string. */
export const text = (message?: string) => v.pipe(v.string(message), v.check(hasNoForbiddenCharacters, FORBIDDEN_CHARACTERS_MESSAGE));

/**
 * What a member writes in a field (a comment, a reply, a name): text, trimmed, not empty (`empty` is the refusal), at
 * most `max` characters. `field` names it in the other refusals ("Comment must be at most 2,000 characters").
 */
export const writtenText = (field: string, empty: string, max: number) =>
  v.pipe(
    text(`${field} must be text`),
    v.trim(),
    v.minLength(1, empty),
    v.maxLength(max, `${field} must be at most ${max.toLocaleString('en-US')} characters`),
  );
