import { syntaxError } from './errors.js';
import { Scanner } from './lexer.js';
import { type Arg, type ConfigTree, DirectiveNode, type Entry, type Pos, type Word } from './tree.js';

/** Where the rest of a line after a directive ends, when it holds only spaces and a comment; else `offset`. */
function trailingEnd(text: string, offset: number): number {
  const n = text.length;
  let i = offset;
  while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  if (text.charCodeAt(i) === 35 /* # */) {
    const nl = text.indexOf('\n', i);
    i = nl < 0 ? n : nl;
  }
  if (i >= n) return n;
  return text.charCodeAt(i) === 10 ? i + 1 : offset;
}

/** The rest of a line after a directive, when it holds only spaces and a comment. */
export function trailingAt(text: string, offset: number): string {
  return text.slice(offset, trailingEnd(text, offset));
}

function describe(s: Scanner): string {
  if (s.kind === 'eof') return 'the end of the file';
  if (s.word) return `'${s.word.text}'`;
  return `'${s.kind}'`;
}

/**
 * Parses the nginx-like grammar: Directive = NAME ARG* ( ';' | '{' Directive* '}' ). A directive may
 * continue on the next lines only when they are indented deeper than its name: a line that starts
 * at or left of the name's column begins a new directive, so a forgotten `;` is reported where it
 * is missing instead of silently swallowing the next directive as arguments.
 */
export function parseTree(text: string): ConfigTree {
  const s = new Scanner(text);
  s.next();
  // Directive names and the short texts between directives (indentation, a line break) repeat all
  // over a file: one string each, instead of one per directive that the whole tree then keeps.
  const names = new Map<string, string>();
  const intern = (name: string) => names.get(name) ?? (names.set(name, name), name);
  const shorts = new Map<string, string>();
  const shortText = (from: number, to: number) => {
    const piece = text.slice(from, to);
    if (to - from > 8) return piece;
    return shorts.get(piece) ?? (shorts.set(piece, piece), piece);
  };

  const parseList = (): Arg => {
    const open = s.pos();
    s.next();
    const items: Word[] = [];
    for (; s.kind !== ']'; s.next()) {
      if (!s.word)
        throw syntaxError(
          s.pos(),
          `expected ']' to close the list opened at line ${open.line}, column ${open.column}, found ${describe(s)}`,
        );
      items.push(s.word);
    }
    return { kind: 'list', items, pos: open };
  };

  const parseDirective = (cursor: number): { entry: Entry; cursor: number } => {
    const name = s.word as Word;
    const nameStart = s.start;
    const nameLine = s.line;
    const nameColumn = s.column;
    // Where the last argument (or the name) ends: errors about what follows are reported there.
    let lastLine = s.endLine;
    let lastColumn = s.endColumn;
    const lastPos = (): Pos => ({ line: lastLine, column: lastColumn });
    s.next();
    const args: Arg[] = [];
    for (;;) {
      if (s.kind === 'word' || s.kind === '[') {
        if (s.line > lastLine && s.column <= nameColumn) {
          throw syntaxError(lastPos(), `expected ';' or '{' after the arguments of '${name.text}'`);
        }
        args.push(s.word ?? parseList());
        lastLine = s.endLine;
        lastColumn = s.endColumn;
        s.next();
        continue;
      }
      if (s.kind === ';' || s.kind === '{') break;
      const what = args.length > 0 ? `the arguments of '${name.text}'` : `'${name.text}'`;
      throw syntaxError(lastPos(), `expected ';' or '{' after ${what}, found ${describe(s)}`);
    }
    const directive = new DirectiveNode(
      intern(name.text),
      name.bare,
      nameLine,
      nameColumn,
      args,
      s.line,
      s.column,
    );
    const leading = shortText(cursor, nameStart);
    const terminatorEnd = s.end;
    if (s.kind === ';') {
      s.next();
      const after = trailingEnd(text, terminatorEnd);
      const entry: Entry = {
        directive,
        leading,
        raw: text.slice(nameStart, terminatorEnd),
        trailing: shortText(terminatorEnd, after),
        block: undefined,
      };
      return { entry, cursor: after };
    }
    const open = directive.end;
    s.next();
    const headerEnd = trailingEnd(text, terminatorEnd);
    const body = parseBody(headerEnd, { name: name.text, pos: open });
    directive.children = body.entries;
    const after = trailingEnd(text, body.end);
    const entry: Entry = {
      directive,
      leading,
      raw: text.slice(nameStart, body.end),
      trailing: shortText(body.end, after),
      block: {
        header: text.slice(nameStart, terminatorEnd),
        headerTrailing: shortText(terminatorEnd, headerEnd),
        closeLeading: body.closing,
      },
    };
    return { entry, cursor: after };
  };

  const parseBody = (cursor: number, opener?: { name: string; pos: Pos }) => {
    const entries: Entry[] = [];
    for (;;) {
      if (s.kind === 'word') {
        const parsed = parseDirective(cursor);
        entries.push(parsed.entry);
        cursor = parsed.cursor;
        continue;
      }
      if (s.kind === '}' && opener) {
        const closing = shortText(cursor, s.start);
        const end = s.end;
        s.next();
        return { entries, closing, end };
      }
      if (s.kind === 'eof' && !opener) return { entries, closing: text.slice(cursor), end: s.end };
      if (s.kind === 'eof' && opener) {
        throw syntaxError(
          opener.pos,
          `unbalanced braces: the '{' of '${opener.name}' is never closed (expected '}' before the end of the file)`,
        );
      }
      if (s.kind === '}')
        throw syntaxError(s.pos(), "unbalanced braces: unexpected '}' (no block is open here)");
      throw syntaxError(s.pos(), `expected a directive name, found ${describe(s)}`);
    }
  };

  const body = parseBody(0);
  return { entries: body.entries, closing: body.closing, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
