import type { Pos } from './tree.js';

/**
 * A config text that cannot be read. `line` and `column` are 1-based and point at the place to
 * fix; the message starts with them so that it can be shown to an operator as it is.
 */
export class ConfigSyntaxError extends Error {
  readonly line: number;
  readonly column: number;

  constructor(line: number, column: number, reason: string) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'ConfigSyntaxError';
    this.line = line;
    this.column = column;
  }
}

export function syntaxError(pos: Pos, reason: string): ConfigSyntaxError {
  return new ConfigSyntaxError(pos.line, pos.column, reason);
}
