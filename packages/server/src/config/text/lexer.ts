import { syntaxError } from './errors.js';
import { type Pos, type Word, WordNode } from './tree.js';

export type Punct = ';' | '{' | '}' | '[' | ']' | 'eof';

/** An option key: `priority=1` is an option, `http://h/p?a=1` is not (its `=` follows a `?`). */
export const OPTION_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', n: '\n', r: '\r', t: '\t' };

const SPACE = 1;
/** Ends a bare token: whitespace, `;`, `{`, `}`, a quote (a bare token may not hold one), `]`. */
const STOP = 2;
const CLASS = new Uint8Array(128);
for (const c of ' \t\n\r\f\v') CLASS[c.charCodeAt(0)] = SPACE | STOP;
for (const c of ';{}"\']') CLASS[c.charCodeAt(0)] = STOP;
const BOM = 0xfeff;

export function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF';
}

function isSpaceCode(c: number): boolean {
  return c < 128 ? ((CLASS[c] as number) & SPACE) !== 0 : c === BOM;
}

function isStopCode(c: number): boolean {
  return c < 128 ? ((CLASS[c] as number) & STOP) !== 0 : c === BOM;
}

/**
 * Reads a config text token by token, on demand: the parser holds one token at a time, so a large
 * file costs no array of tokens. `#` starts a comment only where a token could start (so
 * `http://h/#frag` stays one token). A quote inside a bare token is literal, except right after
 * `key=`, where it opens the option's quoted value (`user_agent="VLC 3"`). `[` opens a list only at
 * the start of a token and `]` closes one only inside a list, so `udp://[ff02::1]:1234` is one token.
 * Lines and columns are counted as the scan goes.
 */
export class Scanner {
  kind: Punct | 'word' = 'eof';
  /** The current token: its offsets, where it starts, the line it ends on and its column there. */
  start = 0;
  end = 0;
  line = 1;
  column = 1;
  endLine = 1;
  endColumn = 1;
  /** Set when the current token is a word. */
  word: Word | undefined;
  private i = 0;
  private lineNo = 1;
  private lineStart = 0;
  private inList = false;

  constructor(readonly text: string) {}

  pos(): Pos {
    return { line: this.line, column: this.column };
  }

  endPos(): Pos {
    return { line: this.endLine, column: this.endColumn };
  }

  private at(offset: number): Pos {
    return { line: this.lineNo, column: offset - this.lineStart + 1 };
  }

  /** Moves to the next token. */
  next(): void {
    const { text } = this;
    const n = text.length;
    let i = this.i;
    for (;;) {
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === 10) {
        this.lineNo++;
        this.lineStart = ++i;
      } else if (isSpaceCode(c)) i++;
      else if (c === 35 /* # */) {
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? n : nl;
      } else break;
    }
    this.start = i;
    this.line = this.lineNo;
    this.column = i - this.lineStart + 1;
    this.word = undefined;
    if (i >= n) return this.finish('eof', n);
    const c = text[i] as string;
    if (c === ';' || c === '{' || c === '}' || (c === ']' && this.inList)) {
      if (c === ']') this.inList = false;
      return this.finish(c, i + 1);
    }
    if (c === '[') {
      if (this.inList)
        throw syntaxError(this.pos(), "lists cannot be nested: write such a value as json '…'");
      this.inList = true;
      return this.finish('[', i + 1);
    }
    const { line, column } = this;
    if (c === '"' || c === "'") {
      const q = this.readQuoted(i);
      this.checkAfterQuote(q.end);
      this.word = new WordNode(q.value, false, undefined, line, column);
      return this.finish('word', q.end);
    }
    let j = i;
    let quoted: { value: string; end: number } | undefined;
    for (;;) {
      while (j < n && !isStopCode(text.charCodeAt(j))) j++;
      const d = text[j];
      if (d === ']' && !this.inList) {
        j++;
        continue;
      }
      if (d !== '"' && d !== "'") break;
      if (text[j - 1] === '=' && OPTION_KEY.test(text.slice(i, j - 1))) {
        quoted = this.readQuoted(j);
        this.checkAfterQuote(quoted.end);
        break;
      }
      j++;
    }
    const head = text.slice(i, j);
    const eq = head.indexOf('=');
    const key = eq > 0 ? head.slice(0, eq) : '';
    if (quoted) {
      const option = { key, value: quoted.value, valueBare: false };
      this.word = new WordNode(head + quoted.value, false, option, line, column);
      return this.finish('word', quoted.end);
    }
    const option =
      eq > 0 && OPTION_KEY.test(key) ? { key, value: head.slice(eq + 1), valueBare: true } : undefined;
    this.word = new WordNode(head, true, option, line, column);
    return this.finish('word', j);
  }

  private finish(kind: Punct | 'word', end: number): void {
    this.kind = kind;
    this.end = end;
    this.i = end;
    this.endLine = this.lineNo;
    this.endColumn = end - this.lineStart + 1;
  }

  private readQuoted(at: number): { value: string; end: number } {
    const { text } = this;
    const n = text.length;
    const quote = text.charCodeAt(at);
    const opened = this.at(at);
    // Plain runs are sliced whole; only escapes are put together piece by piece.
    let out = '';
    let run = at + 1;
    for (let j = at + 1; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === quote) return { value: out + text.slice(run, j), end: j + 1 };
      if (c === 92 /* \ */ && j + 1 < n) {
        const e = text[j + 1] as string;
        out += text.slice(run, j) + (Object.hasOwn(ESCAPES, e) ? ESCAPES[e] : `\\${e}`);
        if (e === '\n') {
          this.lineNo++;
          this.lineStart = j + 2;
        }
        run = ++j + 1;
        continue;
      }
      if (c === 10) {
        this.lineNo++;
        this.lineStart = j + 1;
      }
    }
    throw syntaxError(opened, `unterminated string: the ${text[at]} opened here is never closed`);
  }

  private checkAfterQuote(end: number): void {
    const c = this.text[end];
    if (end >= this.text.length || isSpace(c) || c === ';' || c === '{' || c === '}' || c === '#') return;
    if (this.inList && c === ']') return;
    throw syntaxError(this.at(end), `expected a space, ';' or '{' after the closing quote, found '${c}'`);
  }
}

interface Span {
  start: number;
  end: number;
  pos: Pos;
  endPos: Pos;
}
export type Token = (Span & { kind: 'word'; word: Word }) | (Span & { kind: Punct });

/** Every token of a text, the end included (for tests and tools; the parser reads them one by one). */
export function tokenize(text: string): Token[] {
  const scanner = new Scanner(text);
  const tokens: Token[] = [];
  do {
    scanner.next();
    const span = { start: scanner.start, end: scanner.end, pos: scanner.pos(), endPos: scanner.endPos() };
    const { word } = scanner;
    tokens.push(word ? { ...span, kind: 'word', word } : { ...span, kind: scanner.kind as Punct });
  } while (scanner.kind !== 'eof');
  return tokens;
}
