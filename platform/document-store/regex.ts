/**
 * $regex support. MongoDB runs patterns with PCRE (UTF mode, no UCP), PostgreSQL
 * with Spencer's ARE engine and JavaScript with its own; the three disagree on
 * `\w`, `\s`, `\b`, `.`, `$`, case folding and much else. So a pattern is parsed
 * into a small syntax tree covering a common subset, anything else is refused,
 * and the tree is written out for ARE (SQL `~`) and for JavaScript with PCRE's
 * meaning spelled out explicitly: ASCII classes, `.` excluding only "\n" unless
 * `s`, `$` also matching before a final newline, and `i` as explicit case
 * alternatives (including PCRE's U+017F for s and U+212A for k).
 */
import { UnsupportedQueryError } from './port';

type Range = readonly [number, number];

type RegexNode =
  | { type: 'class'; negated: boolean; ranges: Range[] }
  | { type: 'any' }
  | { type: 'start' }
  | { type: 'end' }
  | { type: 'word-boundary'; negated: boolean }
  | { type: 'group'; alternatives: RegexNode[][] }
  | { type: 'repeat'; node: RegexNode; min: number; max: number | null };

export interface CompiledRegex {
  /** The pattern and options as given, for engines that speak PCRE themselves. */
  readonly source: string;
  readonly options: string;
  /** An ARE pattern for PostgreSQL's case-sensitive `~` operator. */
  readonly postgres: string;
  /** The same meaning as a JavaScript RegExp (flag `u`). */
  readonly javascript: RegExp;
}

const MAX_REPEAT = 255; // ARE's RE_DUP_MAX
const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
]; // PCRE2: \t \n \v \f \r and space
const NEWLINE = 0x0a;

export function compileRegex(source: string, options: string): CompiledRegex {
  for (const flag of options) {
    if (!'ims'.includes(flag)) throw new UnsupportedQueryError(`$options '${flag}' is not supported (only i, m, s)`);
  }
  const flags = { i: options.includes('i'), m: options.includes('m'), s: options.includes('s') };
  const tree = new Parser(source, flags.i).parse();
  return {
    source,
    options,
    postgres: writeAlternatives(tree, areWriter(flags)),
    javascript: new RegExp(writeAlternatives(tree, jsWriter(flags)), 'u'),
  };
}

class Parser {
  private position = 0;
  private readonly chars: number[];

  constructor(
    private readonly source: string,
    private readonly caseInsensitive: boolean,
  ) {
    this.chars = Array.from(source, (c) => c.codePointAt(0) ?? 0);
  }

  parse(): RegexNode[][] {
    const alternatives = this.alternatives();
    if (this.position < this.chars.length) this.fail('unbalanced )');
    return alternatives;
  }

  private fail(reason: string): never {
    throw new UnsupportedQueryError(`$regex /${this.source}/ is not supported: ${reason}`);
  }

  private peek(offset = 0): number | undefined {
    return this.chars[this.position + offset];
  }

  private alternatives(): RegexNode[][] {
    const alternatives = [this.sequence()];
    while (this.peek() === 0x7c /* | */) {
      this.position++;
      alternatives.push(this.sequence());
    }
    return alternatives;
  }

  private sequence(): RegexNode[] {
    const nodes: RegexNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== 0x7c && c !== 0x29; c = this.peek()) {
      const atom = this.atom();
      const repeat = this.quantifier();
      if (repeat) {
        if (atom.type === 'start' || atom.type === 'end' || atom.type === 'word-boundary') this.fail('quantified anchor');
        nodes.push({ type: 'repeat', node: atom, ...repeat });
      } else {
        nodes.push(atom);
      }
    }
    return nodes;
  }

  private quantifier(): { min: number; max: number | null } | null {
    const c = this.peek();
    let repeat: { min: number; max: number | null } | null = null;
    if (c === 0x2a /* * */) repeat = { min: 0, max: null };
    else if (c === 0x2b /* + */) repeat = { min: 1, max: null };
    else if (c === 0x3f /* ? */) repeat = { min: 0, max: 1 };
    if (repeat) this.position++;
    else if (c === 0x7b /* { */) repeat = this.braces();
    if (!repeat) return null;
    // Laziness changes which match is found, never whether one is: matching here is a yes/no test.
    if (this.peek() === 0x3f) this.position++;
    else if (this.peek() === 0x2b) this.fail('possessive quantifier');
    const next = this.peek();
    if (next === 0x2a || next === 0x2b || next === 0x3f || next === 0x7b) this.fail('nested quantifier');
    return repeat;
  }

  private braces(): { min: number; max: number | null } {
    const rest = String.fromCodePoint(...this.chars.slice(this.position));
    const match = /^\{(\d{1,3})(?:(,)(\d{1,3})?)?\}/.exec(rest);
    if (!match) this.fail('a literal { must be escaped');
    this.position += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === undefined ? null : Number(match[3]);
    if (min > MAX_REPEAT || (max !== null && (max > MAX_REPEAT || max < min))) this.fail('repeat count out of range');
    return { min, max };
  }

  private atom(): RegexNode {
    const c = this.peek();
    if (c === undefined) this.fail('unexpected end');
    this.position++;
    switch (c) {
      case 0x28 /* ( */:
        {
          if (this.peek() === 0x3f /* ? */) {
            if (this.peek(1) !== 0x3a /* : */) this.fail('only (?:...) groups are supported');
            this.position += 2;
          }
          const alternatives = this.alternatives();
          if (this.peek() !== 0x29) this.fail('unbalanced (');
          this.position++;
          return { type: 'group', alternatives };
        }
      case 0x5b /* [ */:
        return this.characterClass();
      case 0x2e /* . */:
        return { type: 'any' };
      case 0x5e /* ^ */:
        return { type: 'start' };
      case 0x24 /* $ */:
        return { type: 'end' };
      case 0x5c /* \ */:
        return this.escape();
      case 0x2a:
      case 0x2b:
      case 0x3f:
        return this.fail('quantifier without a target');
      case 0x7b:
        return this.fail('a literal { must be escaped');
      default:
        return this.literal(c);
    }
  }

  private escape(): RegexNode {
    const c = this.peek();
    if (c === undefined) this.fail('trailing backslash');
    this.position++;
    switch (String.fromCodePoint(c)) {
      case 'b':
        return { type: 'word-boundary', negated: false };
      case 'B':
        return { type: 'word-boundary', negated: true };
      case 'd':
        return { type: 'class', negated: false, ranges: DIGIT };
      case 'D':
        return { type: 'class', negated: true, ranges: DIGIT };
      case 'w':
        return { type: 'class', negated: false, ranges: WORD };
      case 'W':
        return { type: 'class', negated: true, ranges: WORD };
      case 's':
        return { type: 'class', negated: false, ranges: SPACE };
      case 'S':
        return { type: 'class', negated: true, ranges: SPACE };
      default:
        return this.literal(this.escapedCharacter(c));
    }
  }

  /** Escapes that stand for one character, in and outside classes. */
  private escapedCharacter(c: number): number {
    const named: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c };
    const letter = String.fromCodePoint(c);
    if (named[letter] !== undefined) return named[letter];
    if (letter === 'x') {
      const hex = String.fromCodePoint(...this.chars.slice(this.position, this.position + 2));
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail('\\x needs two hex digits');
      this.position += 2;
      const value = parseInt(hex, 16);
      if (value === 0) this.fail('NUL is not supported');
      return value;
    }
    if (c < 0x80 && !/[0-9A-Za-z]/.test(letter)) return c;
    return this.fail(`escape \\${letter}`);
  }

  private literal(c: number): RegexNode {
    return { type: 'class', negated: false, ranges: this.withCases([[c, c]]) };
  }

  private characterClass(): RegexNode {
    let negated = false;
    if (this.peek() === 0x5e /* ^ */) {
      negated = true;
      this.position++;
    }
    if (this.peek() === 0x5d /* ] */) this.fail('a leading ] in a class must be escaped');
    const ranges: Range[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('unterminated [');
      if (c === 0x5d) {
        this.position++;
        break;
      }
      const first = this.classMember();
      if (first.length > 1 || this.peek() !== 0x2d /* - */ || this.peek(1) === 0x5d || this.peek(1) === undefined) {
        ranges.push(...first);
        continue;
      }
      this.position++;
      const last = this.classMember();
      const [low] = first;
      const [high] = last;
      if (first.length !== 1 || last.length !== 1 || !low || !high || low[0] !== low[1] || high[0] !== high[1]) {
        this.fail('a range bound must be a single character');
      }
      if (high[0] < low[0]) this.fail('reversed range');
      ranges.push([low[0], high[0]]);
    }
    return { type: 'class', negated, ranges: this.withCases(ranges) };
  }

  private classMember(): Range[] {
    const c = this.peek();
    if (c === undefined) this.fail('unterminated [');
    this.position++;
    if (c === 0x5b /* [ */) this.fail('a [ inside a class must be escaped');
    if (c !== 0x5c) return [[c, c]];
    const e = this.peek();
    if (e === undefined) this.fail('trailing backslash');
    this.position++;
    switch (String.fromCodePoint(e)) {
      case 'd':
        return DIGIT;
      case 'w':
        return WORD;
      case 's':
        return SPACE;
      case 'D':
      case 'W':
      case 'S':
      case 'b':
      case 'B':
        return this.fail(`\\${String.fromCodePoint(e)} inside a class`);
      default: {
        const value = this.escapedCharacter(e);
        return [[value, value]];
      }
    }
  }

  /**
   * Under `i`, adds PCRE's case partners. ASCII as PCRE folds it (with U+017F for s and U+212A for k); past ASCII,
   * PCRE in UTF mode folds by Unicode's simple case folding, which JavaScript's `iu` matching also follows, so a
   * character's partners are those it matches there (É é, Σ σ ς, Å å Å). A range past ASCII with cased characters is
   * folded when it is short; a long one is refused rather than written out.
   */
  private withCases(ranges: Range[]): Range[] {
    if (!this.caseInsensitive) return ranges;
    const extra: Range[] = [];
    for (const [low, high] of ranges) {
      if (high > 0x7f) {
        const from = Math.max(low, 0x80);
        if (high - from > MAX_FOLDED_RANGE) {
          for (let c = from; c <= high; c++) if (isCased(c)) this.fail('with option i, a range past ASCII may hold at most 256 characters');
        } else {
          for (let c = from; c <= high; c++) for (const partner of casePartners(c)) extra.push([partner, partner]);
        }
        if (low > 0x7f) continue;
      }
      for (let c = low; c <= Math.min(high, 0x7f); c++) {
        const letter = String.fromCharCode(c);
        const lower = letter.toLowerCase();
        const upper = letter.toUpperCase();
        if (lower === upper) continue;
        extra.push([lower.charCodeAt(0), lower.charCodeAt(0)], [upper.charCodeAt(0), upper.charCodeAt(0)]);
        if (lower === 's') extra.push([0x17f, 0x17f]);
        if (lower === 'k') extra.push([0x212a, 0x212a]);
      }
    }
    return normalise([...ranges, ...extra]);
  }
}

function isCased(c: number): boolean {
  const s = String.fromCodePoint(c);
  return s.toLowerCase() !== s || s.toUpperCase() !== s;
}

const MAX_FOLDED_RANGE = 256;

/**
 * Code points that case-fold together, by the key `lower(upper(c))` (one code point, else c itself); candidates only:
 * `casePartners` keeps those that JavaScript's `iu` matching (Unicode simple case folding) confirms. Built once,
 * on the first non-ASCII character under `i`, over the planes that hold cased letters.
 */
let foldGroups: Map<number, number[]> | undefined;
function foldKey(c: number): number {
  const upper = [...String.fromCodePoint(c).toUpperCase()];
  const lower = upper.length === 1 ? [...upper[0]!.toLowerCase()] : [];
  return lower.length === 1 ? lower[0]!.codePointAt(0)! : c;
}
function groups(): Map<number, number[]> {
  if (foldGroups) return foldGroups;
  foldGroups = new Map();
  for (let c = 0x41; c <= 0x1ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (!isCased(c)) continue;
    const key = foldKey(c);
    const group = foldGroups.get(key);
    if (group) group.push(c);
    else foldGroups.set(key, [c]);
  }
  return foldGroups;
}

/** The code points that match `c` case-insensitively under Unicode simple case folding, `c` included. */
export function casePartners(c: number): number[] {
  if (!isCased(c)) return [c];
  const matcher = new RegExp(`^\\u{${c.toString(16)}}$`, 'iu');
  const candidates = new Set([c, ...(groups().get(foldKey(c)) ?? [])]);
  return [...candidates].filter((candidate) => matcher.test(String.fromCodePoint(candidate))).sort((a, b) => a - b);
}

function normalise(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = merged[merged.length - 1];
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

interface Writer {
  char(c: number): string;
  any: string;
  start: string;
  end: string;
  wordBoundary: string;
  notWordBoundary: string;
}

function writeAlternatives(alternatives: RegexNode[][], writer: Writer): string {
  return alternatives.map((nodes) => nodes.map((node) => writeNode(node, writer)).join('')).join('|');
}

function writeNode(node: RegexNode, writer: Writer): string {
  switch (node.type) {
    case 'class': {
      const only = node.ranges[0];
      if (!node.negated && node.ranges.length === 1 && only && only[0] === only[1]) return writer.char(only[0]);
      const body = node.ranges.map(([low, high]) => (low === high ? writer.char(low) : `${writer.char(low)}-${writer.char(high)}`));
      return `[${node.negated ? '^' : ''}${body.join('')}]`;
    }
    case 'any':
      return writer.any;
    case 'start':
      return writer.start;
    case 'end':
      return writer.end;
    case 'word-boundary':
      return node.negated ? writer.notWordBoundary : writer.wordBoundary;
    case 'group':
      return `(?:${writeAlternatives(node.alternatives, writer)})`;
    case 'repeat': {
      const { min, max } = node;
      const quantifier =
        min === 0 && max === null
          ? '*'
          : min === 1 && max === null
            ? '+'
            : min === 0 && max === 1
              ? '?'
              : max === null
                ? `{${min},}`
                : min === max
                  ? `{${min}}`
                  : `{${min},${max}}`;
      return `${writeNode(node.node, writer)}${quantifier}`;
    }
  }
}

function boundaries(word: string): { wordBoundary: string; notWordBoundary: string } {
  return {
    wordBoundary: `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`,
    notWordBoundary: `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word}))`,
  };
}

function areWriter(flags: { m: boolean; s: boolean }): Writer {
  const char = (c: number) => (c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`);
  const newline = char(NEWLINE);
  return {
    char,
    // `~` is not newline-sensitive, so ARE's `.` and negated classes match "\n".
    any: flags.s ? '.' : `[^${newline}]`,
    start: flags.m ? `(?:\\A|(?<=${newline}))` : '\\A',
    end: flags.m ? `(?=${newline}|\\Z)` : `(?=${newline}?\\Z)`,
    ...boundaries(`[${WORD.map(([a, b]) => (a === b ? char(a) : `${char(a)}-${char(b)}`)).join('')}]`),
  };
}

function jsWriter(flags: { m: boolean; s: boolean }): Writer {
  const char = (c: number) => `\\u{${c.toString(16)}}`;
  const textStart = '(?<![\\s\\S])';
  const textEnd = '(?![\\s\\S])';
  return {
    char,
    any: flags.s ? '[\\s\\S]' : '[^\\n]',
    start: flags.m ? `(?:${textStart}|(?<=\\n))` : textStart,
    end: flags.m ? `(?=\\n|${textEnd})` : `(?=\\n?${textEnd})`,
    ...boundaries('[0-9A-Za-z_]'),
  };
}
