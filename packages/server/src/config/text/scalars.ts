import { OPTION_KEY } from './lexer.js';
import { allows, type Hint } from './schema-hints.js';
import { formatWithUnit, parseNumber, parseWithUnit, type Unit } from './units.js';

export type Scalar = string | number | boolean;

export function isScalar(value: unknown): value is Scalar {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * The value of one token. A quoted token is always a string. A bare token is a number or a boolean
 * when it looks like one and the schema allows that type here (unknown keys allow every type);
 * otherwise it is a string: `password 1234;` stays "1234", `priority 1;` becomes 1.
 */
export function scalarFromText(text: string, bare: boolean, hint: Hint, unit?: Unit): Scalar {
  if (!bare) return text;
  if (allows(hint, 'number')) {
    const n = unit ? parseWithUnit(text, unit) : parseNumber(text);
    if (n !== undefined) return n;
  }
  if ((text === 'true' || text === 'false') && allows(hint, 'boolean')) return text === 'true';
  return text;
}

/** Characters that end or change a bare token: whitespace, `;{}#`, quotes, list brackets, control characters. */
const UNSAFE = /[\s;{}#"'[\]\p{Cc}]/u;
/** A string that reads as `key=value`, `@reference` or `90%` where options, references or percents are read. */
const SPECIAL_FORM = /^(?:[A-Za-z_][A-Za-z0-9_.-]*=|@)|%$/;

/** Whether `s` can be written as a bare token and read back as the same token text. */
export function isSafeBare(s: string): boolean {
  return s !== '' && !UNSAFE.test(s) && !SPECIAL_FORM.test(s);
}

export function quote(s: string): string {
  return `"${s.replace(/[\\"\n\r\t]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? c)}"`;
}

/** Single quotes, for JSON text (which is full of double quotes). */
export function quoteSingle(s: string): string {
  return `'${s.replace(/[\\'\n\r\t]/g, (c) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? c)}'`;
}

/**
 * A string as a token that reads back as the same string. Strings that look like numbers or
 * booleans are quoted even where the schema says string, so that the file reads the same to a
 * person as to the parser; so is `json`, which marks the JSON form when it comes first.
 */
export function formatString(s: string, hint?: Hint, unit?: Unit): string {
  if (!isSafeBare(s) || s === 'json') return quote(s);
  if (scalarFromText(s, true, undefined, unit) !== s || scalarFromText(s, true, hint, unit) !== s)
    return quote(s);
  return s;
}

export function formatScalar(value: Scalar, hint?: Hint, unit?: Unit): string {
  if (typeof value === 'string') return formatString(value, hint, unit);
  if (typeof value === 'number' && unit) return formatWithUnit(value, unit);
  return String(value);
}

/** Keys that can be written as `key=value` options. */
export function isOptionKey(key: string): boolean {
  return OPTION_KEY.test(key);
}

const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:/+@~-]*$/;

/** A directive name: bare when it is a plain name and not one the block reads specially. */
export function formatName(key: string, reserved: ReadonlySet<string>): string {
  return SAFE_NAME.test(key) && !reserved.has(key) ? key : quote(key);
}
