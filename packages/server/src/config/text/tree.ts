/**
 * The generic directive tree of a config text. It knows nothing of streams or ports: the codec
 * gives it meaning. Every directive keeps the raw text around it, so an unchanged part can be
 * written back byte for byte.
 */

/** 1-based line and column. */
export interface Pos {
  line: number;
  column: number;
}

/** A bare or quoted token. `bare` is false when any part of it was quoted (then it is a string). */
export interface Word {
  kind: 'word';
  text: string;
  bare: boolean;
  /** Set for `key=value` tokens whose key is an identifier; the codec decides whether it is an option. */
  option?: { key: string; value: string; valueBare: boolean } | undefined;
  readonly pos: Pos;
}

/** A bracket list `[a b c]` of words. */
export interface ListArg {
  kind: 'list';
  items: Word[];
  pos: Pos;
}

export type Arg = Word | ListArg;

export interface Directive {
  name: string;
  /** False when the name was quoted: a quoted name is always an ordinary key, never a special directive. */
  nameBare: boolean;
  readonly pos: Pos;
  args: Arg[];
  /** Where the argument list ends: the `;` or `{` (reported when something is missing there). */
  readonly end: Pos;
  /** Present for block directives (`name args { … }`), even when the block is empty. */
  children?: Entry[] | undefined;
}

/** The raw text spans of a block directive, apart from its children. */
export interface BlockText {
  /** From the name up to and including `{`. */
  header: string;
  /** Spaces, a comment and the line break right after `{`, when the rest of that line holds nothing else. */
  headerTrailing: string;
  /** Everything between the last child (or the header) and `}`: end-of-block comments, indentation. */
  closeLeading: string;
}

export interface Entry {
  directive: Directive;
  /** Text between the previous entry and this one: blank lines, own-line comments, indentation. */
  leading: string;
  /** The directive itself, from its name to its `;` or `}`. */
  raw: string;
  /** Spaces, a same-line comment and the line break after the directive, when nothing else follows on that line. */
  trailing: string;
  block?: BlockText | undefined;
}

export interface ConfigTree {
  entries: Entry[];
  /** Text after the last entry: end-of-file comments and blank lines. */
  closing: string;
  /** The line break the file uses, so that re-printed parts match it. */
  eol: '\n' | '\r\n';
}

/*
 * The parser makes words and directives as the classes below, which keep positions as numbers
 * and make a Pos only when asked (for an error message). A large config holds hundreds of
 * thousands of them: one object less each is that much less for the garbage collector to copy.
 */

export class WordNode implements Word {
  readonly kind = 'word';

  constructor(
    readonly text: string,
    readonly bare: boolean,
    readonly option: Word['option'],
    readonly line: number,
    readonly column: number,
  ) {}

  get pos(): Pos {
    return { line: this.line, column: this.column };
  }
}

export class DirectiveNode implements Directive {
  children: Entry[] | undefined = undefined;

  constructor(
    readonly name: string,
    readonly nameBare: boolean,
    private readonly line: number,
    private readonly column: number,
    readonly args: Arg[],
    private readonly endLine: number,
    private readonly endColumn: number,
  ) {}

  get pos(): Pos {
    return { line: this.line, column: this.column };
  }

  get end(): Pos {
    return { line: this.endLine, column: this.endColumn };
  }
}
