import { syntaxError } from './errors.js';
import type { Pos, Word } from './tree.js';

export type Punct = ';' | '{' | '}' | '[' | ']' | 'eof';

export type Token =
  | { kind: 'word'; word: Word; start: number; end: number; pos: Pos }
  | { kind: Punct; start: number; end: number; pos: Pos };

/** An option key: `priority=1` is an option, `http://h/p?a=1` is not (its `=` follows a `?`). */
export const OPTION_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', n: '\n', r: '\r', t: '\t' };

export function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF';
}

/** Maps string offsets to 1-based line and column. */
export class Locator {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  at(offset: number): Pos {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.lineStarts[lo] ?? 0) + 1 };
  }
}

/**
 * Splits a config text into tokens. `#` starts a comment only where a token could start (so
 * `http://h/#frag` stays one token). A quote inside a bare token is literal, except right after
 * `key=`, where it opens the option's quoted value (`user_agent="VLC 3"`). `[` opens a list only at
 * the start of a token and `]` closes one only inside a list, so `udp://[ff02::1]:1234` is one token.
 */
export function tokenize(text: string, locator: Locator): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let inList = false;
  const n = text.length;

  const readQuoted = (at: number): { value: string; end: number } => {
    const quote = text[at];
    let out = '';
    let j = at + 1;
    while (j < n) {
      const c = text[j] as string;
      if (c === quote) return { value: out, end: j + 1 };
      if (c === '\\' && j + 1 < n) {
        const e = text[j + 1] as string;
        out += ESCAPES[e] ?? `\\${e}`;
        j += 2;
        continue;
      }
      out += c;
      j++;
    }
    throw syntaxError(locator.at(at), `unterminated string: the ${quote} opened here is never closed`);
  };

  const checkAfterQuote = (end: number) => {
    const c = text[end];
    if (end >= n || isSpace(c) || c === ';' || c === '{' || c === '}' || c === '#' || (inList && c === ']')) return;
    throw syntaxError(locator.at(end), `expected a space, ';' or '{' after the closing quote, found '${c}'`);
  };

  while (i < n) {
    const c = text[i] as string;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    const pos = locator.at(i);
    if (c === ';' || c === '{' || c === '}' || (c === ']' && inList)) {
      tokens.push({ kind: c, start: i, end: i + 1, pos });
      if (c === ']') inList = false;
      i++;
      continue;
    }
    if (c === '[') {
      if (inList) throw syntaxError(pos, "lists cannot be nested: write such a value as json '…'");
      tokens.push({ kind: '[', start: i, end: i + 1, pos });
      inList = true;
      i++;
      continue;
    }
    const start = i;
    let word: Omit<Word, 'pos' | 'end'>;
    if (c === '"' || c === "'") {
      const q = readQuoted(i);
      checkAfterQuote(q.end);
      word = { kind: 'word', text: q.value, bare: false };
      i = q.end;
    } else {
      let j = i;
      let quotedValue: { value: string; end: number } | undefined;
      while (j < n) {
        const d = text[j] as string;
        if (isSpace(d) || d === ';' || d === '{' || d === '}' || (inList && d === ']')) break;
        if ((d === '"' || d === "'") && text[j - 1] === '=' && OPTION_KEY.test(text.slice(start, j - 1))) {
          quotedValue = readQuoted(j);
          checkAfterQuote(quotedValue.end);
          break;
        }
        j++;
      }
      const head = text.slice(start, j);
      const eq = head.indexOf('=');
      const key = eq > 0 ? head.slice(0, eq) : '';
      if (quotedValue) {
        word = { kind: 'word', text: head + quotedValue.value, bare: false };
        word.option = { key, value: quotedValue.value, valueBare: false };
        i = quotedValue.end;
      } else {
        word = { kind: 'word', text: head, bare: true };
        if (eq > 0 && OPTION_KEY.test(key)) word.option = { key, value: head.slice(eq + 1), valueBare: true };
        i = j;
      }
    }
    tokens.push({ kind: 'word', word: { ...word, pos, end: locator.at(i) }, start, end: i, pos });
  }
  tokens.push({ kind: 'eof', start: n, end: n, pos: locator.at(n) });
  return tokens;
}
