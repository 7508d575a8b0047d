import { syntaxError } from './errors.js';
import { type Token, tokenize } from './lexer.js';
import type { Arg, ConfigTree, Directive, Entry, Pos, Word } from './tree.js';

/** The rest of a line after a directive, when it holds only spaces and a comment. */
const TRAILING = /[ \t\r]*(?:#[^\n]*)?(?:\n|$)/y;

export function trailingAt(text: string, offset: number): string {
  TRAILING.lastIndex = offset;
  return TRAILING.exec(text)?.[0] ?? '';
}

function describe(token: Token): string {
  if (token.kind === 'eof') return 'the end of the file';
  if (token.kind === 'word') return `'${token.word.text}'`;
  return `'${token.kind}'`;
}

/**
 * Parses the nginx-like grammar: Directive = NAME ARG* ( ';' | '{' Directive* '}' ). A directive may
 * continue on the next lines only when they are indented deeper than its name: a line that starts
 * at or left of the name's column begins a new directive, so a forgotten `;` is reported where it
 * is missing instead of silently swallowing the next directive as arguments.
 */
export function parseTree(text: string): ConfigTree {
  const tokens = tokenize(text);
  let i = 0;
  const at = (k: number): Token => tokens[k] ?? (tokens[tokens.length - 1] as Token);

  const parseList = (open: Token): Arg => {
    const items: Word[] = [];
    for (;;) {
      const t = at(i);
      if (t.kind === 'word') items.push(t.word);
      else if (t.kind === ']') break;
      else {
        const { line, column } = open.pos;
        throw syntaxError(
          t.pos,
          `expected ']' to close the list opened at line ${line}, column ${column}, found ${describe(t)}`,
        );
      }
      i++;
    }
    const close = at(i++);
    return { kind: 'list', items, pos: open.pos, end: close.endPos };
  };

  const parseDirective = (cursor: number): { entry: Entry; cursor: number } => {
    const nameToken = at(i++);
    if (nameToken.kind !== 'word') throw new Error('parseDirective expects a word');
    const name = nameToken.word;
    const args: Arg[] = [];
    let last: { end: number; endPos: Pos } = { end: nameToken.end, endPos: name.end };
    for (;;) {
      const t = at(i);
      if (t.kind === 'word' || t.kind === '[') {
        if (t.pos.line > last.endPos.line && t.pos.column <= name.pos.column) {
          throw syntaxError(last.endPos, `expected ';' or '{' after the arguments of '${name.text}'`);
        }
        i++;
        const arg = t.kind === 'word' ? t.word : parseList(t);
        args.push(arg);
        last = { end: t.kind === 'word' ? t.end : at(i - 1).end, endPos: arg.end };
        continue;
      }
      if (t.kind === ';' || t.kind === '{') break;
      const what = args.length > 0 ? `the arguments of '${name.text}'` : `'${name.text}'`;
      throw syntaxError(last.endPos, `expected ';' or '{' after ${what}, found ${describe(t)}`);
    }
    const terminator = at(i++);
    const directive: Directive = {
      name: name.text,
      nameBare: name.bare,
      pos: name.pos,
      args,
      end: terminator.pos,
    };
    const leading = text.slice(cursor, nameToken.start);
    if (terminator.kind === ';') {
      const trailing = trailingAt(text, terminator.end);
      const raw = text.slice(nameToken.start, terminator.end);
      return { entry: { directive, leading, raw, trailing }, cursor: terminator.end + trailing.length };
    }
    const headerTrailing = trailingAt(text, terminator.end);
    const body = parseBody(terminator.end + headerTrailing.length, { name: name.text, pos: terminator.pos });
    directive.children = body.entries;
    const trailing = trailingAt(text, body.end);
    const entry: Entry = {
      directive,
      leading,
      raw: text.slice(nameToken.start, body.end),
      trailing,
      block: {
        header: text.slice(nameToken.start, terminator.end),
        headerTrailing,
        closeLeading: body.closing,
      },
    };
    return { entry, cursor: body.end + trailing.length };
  };

  const parseBody = (cursor: number, opener?: { name: string; pos: Pos }) => {
    const entries: Entry[] = [];
    for (;;) {
      const t = at(i);
      if (t.kind === 'word') {
        const parsed = parseDirective(cursor);
        entries.push(parsed.entry);
        cursor = parsed.cursor;
        continue;
      }
      if (t.kind === '}' && opener) {
        i++;
        return { entries, closing: text.slice(cursor, t.start), end: t.end };
      }
      if (t.kind === 'eof' && !opener) return { entries, closing: text.slice(cursor), end: t.end };
      if (t.kind === 'eof' && opener) {
        throw syntaxError(
          opener.pos,
          `unbalanced braces: the '{' of '${opener.name}' is never closed (expected '}' before the end of the file)`,
        );
      }
      if (t.kind === '}')
        throw syntaxError(t.pos, "unbalanced braces: unexpected '}' (no block is open here)");
      throw syntaxError(t.pos, `expected a directive name, found ${describe(t)}`);
    }
  };

  const body = parseBody(0);
  return { entries: body.entries, closing: body.closing, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
