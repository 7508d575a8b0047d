import { syntaxError } from './errors.js';
import type { Pos, Word } from './tree.js';

export type Punct = ';' | '{' | '}' | '[' | ']' | 'eof';

interface Span {
  start: number;
  end: number;
  pos: Pos;
  endPos: Pos;
}
export type Token = (Span & { kind: 'word'; word: Word }) | (Span & { kind: Punct });

/** An option key: `priority=1` is an option, `http://h/p?a=1` is not (its `=` follows a `?`). */
export const OPTION_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', n: '\n', r: '\r', t: '\t' };
/** A run of ordinary characters in a bare token; it stops at every character that may end or change it. */
const BARE_RUN = /[^ \t\n\r\f\v\uFEFF;{}"'\]]+/y;

export function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF';
}

/**
 * Splits a config text into tokens. `#` starts a comment only where a token could start (so
 * `http://h/#frag` stays one token). A quote inside a bare token is literal, except right after
 * `key=`, where it opens the option's quoted value (`user_agent="VLC 3"`). `[` opens a list only at
 * the start of a token and `]` closes one only inside a list, so `udp://[ff02::1]:1234` is one token.
 * Lines and columns are counted as the scan goes: config files can be large.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let inList = false;
  const posAt = (offset: number): Pos => ({ line, column: offset - lineStart + 1 });
  const newLine = (start: number) => {
    line++;
    lineStart = start;
  };

  const readQuoted = (at: number): { value: string; end: number } => {
    const quote = text[at];
    const opened = posAt(at);
    let out = '';
    let j = at + 1;
    while (j < n) {
      const c = text[j] as string;
      if (c === quote) return { value: out, end: j + 1 };
      if (c === '\\' && j + 1 < n) {
        const e = text[j + 1] as string;
        out += Object.hasOwn(ESCAPES, e) ? ESCAPES[e] : `\\${e}`;
        if (e === '\n') newLine(j + 2);
        j += 2;
        continue;
      }
      if (c === '\n') newLine(j + 1);
      out += c;
      j++;
    }
    throw syntaxError(opened, `unterminated string: the ${quote} opened here is never closed`);
  };

  const checkAfterQuote = (end: number) => {
    const c = text[end];
    if (end >= n || isSpace(c) || c === ';' || c === '{' || c === '}' || c === '#' || (inList && c === ']'))
      return;
    throw syntaxError(posAt(end), `expected a space, ';' or '{' after the closing quote, found '${c}'`);
  };

  const punct = (kind: Punct, at: number) =>
    tokens.push({ kind, start: at, end: at + 1, pos: posAt(at), endPos: posAt(at + 1) });

  while (i < n) {
    const c = text[i] as string;
    if (c === '\n') {
      newLine(++i);
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c === ';' || c === '{' || c === '}' || (c === ']' && inList)) {
      punct(c, i);
      if (c === ']') inList = false;
      i++;
      continue;
    }
    const pos = posAt(i);
    if (c === '[') {
      if (inList) throw syntaxError(pos, "lists cannot be nested: write such a value as json '…'");
      punct('[', i);
      inList = true;
      i++;
      continue;
    }
    const start = i;
    let word: Word;
    if (c === '"' || c === "'") {
      const q = readQuoted(i);
      checkAfterQuote(q.end);
      i = q.end;
      word = { kind: 'word', text: q.value, bare: false, pos, end: posAt(i) };
    } else {
      let j = i;
      let quoted: { value: string; end: number } | undefined;
      for (;;) {
        BARE_RUN.lastIndex = j;
        if (BARE_RUN.test(text)) j = BARE_RUN.lastIndex;
        const d = text[j];
        if (d === ']' && !inList) {
          j++;
          continue;
        }
        if (d !== '"' && d !== "'") break;
        if (text[j - 1] === '=' && OPTION_KEY.test(text.slice(start, j - 1))) {
          quoted = readQuoted(j);
          checkAfterQuote(quoted.end);
          break;
        }
        j++;
      }
      const head = text.slice(start, j);
      const eq = head.indexOf('=');
      const key = eq > 0 ? head.slice(0, eq) : '';
      if (quoted) {
        i = quoted.end;
        word = {
          kind: 'word',
          text: head + quoted.value,
          bare: false,
          pos,
          end: posAt(i),
          option: { key, value: quoted.value, valueBare: false },
        };
      } else {
        i = j;
        word = { kind: 'word', text: head, bare: true, pos, end: posAt(i) };
        if (eq > 0 && OPTION_KEY.test(key)) word.option = { key, value: head.slice(eq + 1), valueBare: true };
      }
    }
    tokens.push({ kind: 'word', word, start, end: i, pos, endPos: word.end });
  }
  tokens.push({ kind: 'eof', start: n, end: n, pos: posAt(n), endPos: posAt(n) });
  return tokens;
}
